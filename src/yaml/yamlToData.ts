import { isAlias, isMap, isScalar, isSeq, type Alias, type Node, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import type { DefinitionError } from "../errors";
import { setOwn } from "../util/ownProperty";
import { depthLimitReason, yamlLimits } from "./yamlLimits";
import type { YamlSource } from "./yamlSource";
import { yamlTagProblem } from "./yamlTagProblem";

type Path = (string | number)[];

/** A node an anchor (`&name`) can name, which an alias (`*name`) then repeats. */
export type AnchoredNode = Scalar | YAMLMap | YAMLSeq;

/** A parsed definition as plain data, and what each alias in it stands for. */
export interface YamlData {
  /** Plain objects, arrays and JSON scalars: a tree, with every alias expanded into a copy of its own. */
  readonly data: unknown;
  /** The node each alias repeats: the last anchor of its name before it. */
  readonly aliases: ReadonlyMap<Alias, AnchoredNode>;
}

/**
 * Converts a parsed YAML node into JSON data, refusing what a definition cannot be: tags other
 * than the core ones, keys that are not strings, `<<` merge keys, a key given twice, numbers that
 * are not finite, nesting past `yamlLimits.maxDepth`, aliases that are undefined, contain
 * themselves, or expand past `yamlLimits.maxAliasNodes`. Keys named `__proto__` become own data
 * properties, as `JSON.parse` makes them. Throws the first problem, in document order, as a
 * located `DefinitionError`.
 */
export function yamlToData(root: Node, source: YamlSource): YamlData {
  const builder = new DataBuilder(source);
  const data = builder.value(root, [], 0);
  return { data, aliases: builder.aliases };
}

class DataBuilder {
  readonly aliases = new Map<Alias, AnchoredNode>();
  private readonly anchors = new Map<string, AnchoredNode>();
  // The collections being converted: an alias to one of them would contain itself.
  private readonly open = new Set<Node>();
  private aliasNodes = 0;
  // The outermost alias being expanded: problems of the expansion are reported there.
  private expanding: { readonly node: Alias; readonly path: Path } | undefined;

  constructor(private readonly source: YamlSource) {}

  value(node: Node | null, path: Path, depth: number): unknown {
    if (node === null) return null;
    if (isAlias(node)) return this.alias(node, path, depth);
    if (!isScalar(node) && !isMap(node) && !isSeq(node)) throw this.fail(path, "is a YAML node that is not a scalar, mapping or sequence; write plain data.", node);
    if (this.expanding) {
      this.aliasNodes += 1;
      if (this.aliasNodes > yamlLimits.maxAliasNodes) throw this.fail(path, aliasLimitReason, node);
    } else if (node.anchor) {
      this.anchors.set(node.anchor, node);
    }
    const tagProblem = node.tag === undefined ? undefined : yamlTagProblem(node, this.source.excerpt(node.range!));
    if (tagProblem) throw this.fail(path, tagProblem, node);
    if (isScalar(node)) return this.scalar(node, path);
    if (depth >= yamlLimits.maxDepth) throw this.fail(path, depthLimitReason, node);
    this.open.add(node);
    try {
      return isMap(node) ? this.map(node, path, depth + 1) : this.seq(node, path, depth + 1);
    } finally {
      this.open.delete(node);
    }
  }

  private scalar(node: Scalar, path: Path): unknown {
    const value = node.value;
    if (value === null || typeof value === "string" || typeof value === "boolean") return value;
    if (typeof value === "number" && Number.isFinite(value)) return value;
    const written = this.source.excerpt(node.range!);
    if (typeof value === "number") {
      return this.raise(path, `is ${written}, which is not a finite number; a definition is JSON data, so write a finite number, or quote it ('${written}') for a string.`, node);
    }
    return this.raise(path, `is ${written}, which is not JSON data; write a string, a number, true, false or null.`, node);
  }

  private map(node: YAMLMap, path: Path, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Map<string, Node | null>();
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const key = this.key(keyNode, path, depth, node);
      const keyPath = [...path, key];
      if (seen.has(key)) {
        const first = this.source.position((seen.get(key) ?? node).range![0]);
        this.raise(keyPath, `is given twice in one mapping (also at line ${first.line}, column ${first.column}); keep one of them.`, keyNode ?? node);
      }
      seen.set(key, keyNode);
      setOwn(out, key, this.value(pair.value as Node | null, keyPath, depth));
    }
    return out;
  }

  private seq(node: YAMLSeq, path: Path, depth: number): unknown[] {
    return node.items.map((item, index) => this.value(item as Node | null, [...path, index], depth));
  }

  private key(node: Node | null, path: Path, depth: number, map: YAMLMap): string {
    if (isScalar(node) && node.type === "PLAIN" && node.tag === undefined && node.value === "<<") {
      this.raise([...path, "<<"], "is a merge key ('<<'), which a definition does not read (it is JSON data); write the merged keys out, or quote '<<' for a key named so.", node);
    }
    const target = isAlias(node) ? this.resolve(node, path) : node;
    const value = isScalar(target) ? target.value : target;
    if (typeof value !== "string") this.raise(path, nonStringKeyReason(target, value, this.source), node ?? map);
    return this.value(node, path, depth) as string;
  }

  private alias(node: Alias, path: Path, depth: number): unknown {
    const target = this.resolve(node, path);
    if (this.open.has(target)) {
      this.raise(path, `is the alias *${node.source} inside the value &${node.source} names; an alias cannot repeat a value that contains it, so write this value out.`, node);
    }
    const outer = this.expanding;
    this.expanding ??= { node, path };
    try {
      return this.value(target, path, depth);
    } finally {
      this.expanding = outer;
    }
  }

  private resolve(node: Alias, path: Path): AnchoredNode {
    let target = this.aliases.get(node);
    if (!target) {
      target = this.anchors.get(node.source);
      if (!target) this.raise(path, `is the alias *${node.source}, but no anchor &${node.source} comes before it; put the anchor on an earlier value, or write the value out.`, node);
      this.aliases.set(node, target);
    }
    return target;
  }

  private raise(path: Path, reason: string, node: Node): never {
    throw this.fail(path, reason, node);
  }

  private fail(path: Path, reason: string, node: Node): DefinitionError {
    if (this.expanding) return this.source.error(this.expanding.path, reason, this.expanding.node.range![0]);
    return this.source.error(path, reason, node.range![0]);
  }
}

const aliasLimitReason = `expands aliases to more than ${yamlLimits.maxAliasNodes.toLocaleString("en-US")} values, the limit for a definition file (it guards against files that expand into huge data); repeat fewer or smaller values with aliases.`;

// `node` is the key, or the value its alias repeats.
function nonStringKeyReason(node: Node | null, value: unknown, source: YamlSource): string {
  const rule = "a definition is JSON data, whose keys are strings";
  const written = node?.range ? source.excerpt(node.range) : "";
  if (value === null && written === "") return `has an empty key; ${rule}, so write a key before the ':'.`;
  if (isMap(value) || isSeq(value)) return `has ${isMap(value) ? "a mapping" : "a sequence"} as a key (${written}); ${rule}, so use a string key.`;
  const kind = value === null ? "null" : typeof value === "number" ? "a number" : typeof value === "boolean" ? "a boolean" : "not a string";
  return `has the key ${written}, which is ${kind}; ${rule}, so quote it: ${JSON.stringify(written)}.`;
}
