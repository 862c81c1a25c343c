import { isAlias, isMap, isScalar, isSeq, type Alias, type Node } from "yaml";
import type { AnchoredNode } from "./yamlToData";

/** Where `locateYamlPath` points: at the value (the default) or, with `key: true`, at the key of a mapping entry. */
export interface LocateOptions {
  /** Point at the key of the entry the path ends at (for "unknown key" problems), not at its value. */
  readonly key?: boolean;
}

/**
 * The character offset of the node a data path leads to, in a document `yamlToData` accepted.
 * Descending through an alias leads into the value its anchor names; a path that ends on an alias
 * points at the alias. An empty value (`name:` with nothing after it) is pointed at by its key.
 * When the path does not exist, the offset of the deepest node it does reach: a missing key is
 * reported at the mapping that lacks it.
 */
export function locateYamlPath(root: Node | null, aliases: ReadonlyMap<Alias, AnchoredNode>, path: readonly (string | number)[], options: LocateOptions = {}): number {
  let here: Step = { node: root, key: null };
  for (const segment of path) {
    const container = isAlias(here.node) ? (aliases.get(here.node) ?? null) : here.node;
    const next = childOf(container, segment, aliases);
    if (!next) return startOf(here);
    here = next;
  }
  if (options.key && here.key) return here.key.range![0];
  return startOf(here);
}

// A node reached on the path, with the key of the mapping entry it is the value of.
interface Step {
  readonly node: Node | null;
  readonly key: Node | null;
}

function childOf(container: Node | null, segment: string | number, aliases: ReadonlyMap<Alias, AnchoredNode>): Step | undefined {
  if (isMap(container)) {
    const name = String(segment);
    for (const pair of container.items) {
      const key = pair.key as Node | null;
      const written = isAlias(key) ? aliases.get(key) : key;
      if (isScalar(written) && written.value === name) return { node: pair.value as Node | null, key };
    }
    return undefined;
  }
  if (isSeq(container)) {
    const index = typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
    if (!Number.isInteger(index) || index < 0 || index >= container.items.length) return undefined;
    return { node: container.items[index] as Node | null, key: null };
  }
  return undefined;
}

function startOf({ node, key }: Step): number {
  const empty = node === null || (isScalar(node) && node.value === null && node.range![0] === node.range![1]);
  if (empty && key) return key.range![0];
  return node?.range?.[0] ?? 0;
}
