import { isMap, isScalar, isSeq, parseDocument, type Node } from "yaml";
import { DefinitionError } from "../errors";
import { locateYamlPath, type LocateOptions } from "./locateYamlPath";
import { depthLimitReason, yamlLimits } from "./yamlLimits";
import { deepNestingOffset } from "./yamlNestingScan";
import { type YamlPosition, YamlSource } from "./yamlSource";
import { yamlSyntaxError } from "./yamlSyntaxError";
import { yamlToData } from "./yamlToData";

export type { LocateOptions } from "./locateYamlPath";
export type { YamlPosition } from "./yamlSource";

/** An agent definition read from a YAML file: its data, and where each part of it is in the file. */
export interface YamlDefinition {
  /** The parsed data: plain objects, arrays and JSON scalars, as `JSON.parse` would give (aliases expanded into copies). */
  readonly data: unknown;
  /**
   * Where a path is in the file (1-based line and column). The value by default; `key: true`
   * points at the key of a mapping entry. An empty value (`name:`) is pointed at by its key. A
   * path that does not exist falls back to the deepest part of it that does: a missing key is
   * reported at the start of the mapping that lacks it.
   */
  locate(path: readonly (string | number)[], options?: LocateOptions): YamlPosition;
  /**
   * The error located in this file: `error.at({ file, ...locate(error.path, options) })`, what
   * `loadAgent` throws. Pass `{ key: true }` for a problem with a key itself (an unknown key),
   * whose path ends at that key; by default the error points at the value. An error that already
   * has a location is returned unchanged.
   */
  locateError(error: DefinitionError, options?: LocateOptions): DefinitionError;
}

/**
 * Reads an agent definition from YAML text, which is untrusted: the file `file` (for messages)
 * must be at most `yamlLimits.maxFileBytes`, valid YAML 1.2 without warnings, one document, a
 * mapping at the top, and plain JSON data (see `yamlToData` for what that refuses). Throws the
 * first problem as a `DefinitionError` located in the file: `agent.yaml:3:7: tools[0]: …`.
 */
export function readYamlDefinition(text: string, file: string): YamlDefinition {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > yamlLimits.maxFileBytes) {
    const reason = `is ${count(bytes)} bytes, more than ${count(yamlLimits.maxFileBytes)} bytes (1 MiB), the limit for a definition file; make the file smaller.`;
    throw new DefinitionError([], reason).at({ file, line: 1, column: 1 });
  }
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  // Before the parser, whose time grows faster than the text with nesting.
  const deep = deepNestingOffset(body, yamlLimits.maxDepth);
  if (deep !== undefined) throw new DefinitionError([], depthLimitReason).at({ file, ...positionOf(body, deep) });
  const source = new YamlSource(body, file);
  const document = parseDocument(body, {
    lineCounter: source.lineCounter,
    prettyErrors: false,
    version: "1.2",
    schema: "core",
    merge: false,
    resolveKnownTags: false,
    uniqueKeys: false, // yamlToData refuses a repeated key, with its path and both positions
    intAsBigInt: false,
    logLevel: "error", // "silent" would also drop the error for a second document
  });
  const problem = document.errors[0];
  if (problem) throw yamlSyntaxError(problem, source);
  if (document.directives.yaml.explicit && document.directives.yaml.version !== "1.2") {
    const version = document.directives.yaml.version;
    throw source.error([], `declares YAML ${version} (%YAML ${version}); a definition is read as YAML 1.2, where 'yes' and 'no' are strings and '<<' is no merge key, so remove the %YAML line.`, Math.max(0, body.search(/^%YAML/m)));
  }
  const root = document.contents as Node | null;
  if (!isMap(root)) throw source.error([], notAMappingReason(root), 0);
  const { data, aliases } = yamlToData(root, source);
  const warning = document.warnings[0];
  if (warning) throw yamlSyntaxError(warning, source);

  const locate = (path: readonly (string | number)[], options?: LocateOptions) => source.position(locateYamlPath(root, aliases, path, options));
  return {
    data,
    locate,
    locateError: (error, options) => (error.location ? error : error.at({ file, ...locate(error.path, options) })),
  };
}

function notAMappingReason(root: Node | null): string {
  const fix = "a definition file holds one mapping of keys and values, such as 'version: 1'";
  if (root === null || (isScalar(root) && root.value === null && root.range![0] === root.range![1])) return `is empty; ${fix}.`;
  const value = isScalar(root) ? root.value : root;
  const kind = isSeq(value) ? "a sequence" : value === null ? "null" : typeof value === "string" ? "a string" : typeof value === "number" ? "a number" : typeof value === "boolean" ? "a boolean" : "an alias";
  return `is ${kind}, not a mapping; ${fix}.`;
}

// The line and column of an offset, counted without the parser's line index (it has not run).
function positionOf(text: string, offset: number): YamlPosition {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf("\n"); at >= 0 && at < offset; at = text.indexOf("\n", at + 1)) {
    line += 1;
    start = at + 1;
  }
  return { line, column: offset - start + 1 };
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
