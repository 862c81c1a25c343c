import { Document, visit } from "yaml";
import { DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import { depthLimitReason, yamlLimits } from "./yamlLimits";

/** Options of `definitionToYaml`. */
export interface DefinitionToYamlOptions {
  /** A comment written above the data, one `# ` line per line of it (`Written by toolwright`). */
  readonly comment?: string;
}

/**
 * Writes a JSON object (an agent definition, as `agent.toJSON()` gives it) as YAML that
 * `readYamlDefinition` reads back deep-equal: block style, keys in the data's order, multi-line
 * strings as literal block scalars (`|`, `|-`), and strings that another type would be read from
 * (`"yes"`, `"null"`, `"1e3"`, `"#x"`) quoted, for YAML 1.1 readers too. Object properties that
 * are `undefined` are left out, as `JSON.stringify` does; any other value that is not JSON data
 * (a function, a Date, `NaN`, a cycle), or nesting `readYamlDefinition` would refuse, throws a
 * `DefinitionError` at its path.
 */
export function definitionToYaml(data: unknown, options: DefinitionToYamlOptions = {}): string {
  if (!isPlainObject(data)) throw new DefinitionError([], `is ${describeKind(data)}, not an object; a definition is an object of keys and values, such as { version: 1 }.`);
  checkJsonData(data, [], new Set());
  const document = new Document(data, { version: "1.2", schema: "core", compat: "yaml-1.1", aliasDuplicateObjects: false });
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && needsDoubleQuotes(node.value)) node.type = "QUOTE_DOUBLE";
    },
  });
  const yaml = document.toString({ lineWidth: 0, blockQuote: "literal", indentSeq: true, doubleQuotedAsJSON: true });
  return commentLines(options.comment) + yaml;
}

// Strings the yaml package would write in a form that reads back different: a byte-order mark at
// the start of a plain scalar is taken for the file's own and dropped, and a block scalar whose
// first lines hold only spaces loses them (they are read as indentation).
function needsDoubleQuotes(value: string): boolean {
  if (value.includes("\uFEFF")) return true;
  const leadingBlankLines = /^(?:[ \t]*\n)*/.exec(value)![0];
  return /[ \t]/.test(leadingBlankLines) || (value.includes("\n") && /[ \t]/.test(value) && value.trim() === "");
}

function commentLines(comment: string | undefined): string {
  if (comment === undefined) return "";
  return comment
    .split(/\r\n|\r|\n/)
    .map((line) => (line === "" ? "#\n" : `# ${line}\n`))
    .join("");
}

// `open` holds the arrays and objects being checked, the path's ancestors: one of them again is a cycle.
function checkJsonData(value: unknown, path: (string | number)[], open: Set<object>): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return;
    throw notJson(path, value);
  }
  if (typeof value !== "object" || (!Array.isArray(value) && !isPlainObject(value))) throw notJson(path, value);
  if (open.has(value)) throw new DefinitionError(path, "contains itself (a cycle), which JSON data cannot; give the definition as a tree.");
  if (open.size >= yamlLimits.maxDepth) throw new DefinitionError(path, depthLimitReason);
  open.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) checkJsonData(value[index], [...path, index], open);
  } else {
    for (const [key, entry] of Object.entries(value)) if (entry !== undefined) checkJsonData(entry, [...path, key], open);
  }
  open.delete(value);
}

function notJson(path: (string | number)[], value: unknown): DefinitionError {
  return new DefinitionError(path, `is ${describeKind(value)}, which is not JSON data; give only strings, finite numbers, booleans, null, arrays and plain objects.`);
}
