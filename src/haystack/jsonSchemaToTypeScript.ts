/**
 * A TypeScript type for a JSON Schema of a Haystack tool's parameter, written so that codegen reads
 * the same schema back: `string`, `number`, `Integer`, `boolean`, arrays, enums as unions of
 * literals, objects as inline types (optional properties with `?`), `null` as `| null`. A schema
 * with no TypeScript form here (`$ref`, `oneOf`, a type-less `{}`) is `unknown`, which the caller
 * reports as hand work. `usesInteger` is set when `Integer` (from toolwright) is needed.
 */
export function jsonSchemaToTypeScript(schema: unknown, out: TypeWriting = { usesInteger: false, unknownAt: [] }, at = ""): string {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return unknownAt(out, at);
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every(isLiteral)) return node.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (node.const !== undefined && isLiteral(node.const)) return JSON.stringify(node.const);
  if (Array.isArray(node.anyOf) && node.anyOf.length > 0) return union(node.anyOf.map((part, i) => jsonSchemaToTypeScript(part, out, `${at}.anyOf[${i}]`)));
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.length === 0) return unknownAt(out, at);
  return union(types.map((type) => typeOf(String(type), node, out, at)));
}

/** What writing a type found: whether it uses `Integer`, and the paths of parts written as `unknown`. */
export interface TypeWriting {
  usesInteger: boolean;
  readonly unknownAt: string[];
}

function typeOf(type: string, node: Record<string, unknown>, out: TypeWriting, at: string): string {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return type;
    case "number":
      return "number";
    case "integer":
      out.usesInteger = true;
      return "Integer";
    case "array": {
      if (node.items === undefined) return "unknown[]";
      const item = jsonSchemaToTypeScript(node.items, out, `${at}[]`);
      return /^[\w"$]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case "object":
      return objectType(node, out, at);
    default:
      return unknownAt(out, at);
  }
}

function objectType(node: Record<string, unknown>, out: TypeWriting, at: string): string {
  const properties = typeof node.properties === "object" && node.properties !== null ? (node.properties as Record<string, unknown>) : {};
  const required = Array.isArray(node.required) ? node.required : [];
  const members = Object.entries(properties).map(([name, property]) => `${docComment(property)}${propertyName(name)}${required.includes(name) ? "" : "?"}: ${jsonSchemaToTypeScript(property, out, `${at}.${name}`)}`);
  const extra = node.additionalProperties;
  if (typeof extra === "object" && extra !== null) members.push(`[key: string]: ${jsonSchemaToTypeScript(extra, out, `${at}[key]`)}`);
  if (members.length === 0) return "Record<string, unknown>";
  return `{ ${members.join("; ")} }`;
}

/** A property name as TypeScript writes it: bare when it is an identifier, else quoted. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

// A property's description as a one-line JSDoc comment, which codegen reads back.
function docComment(property: unknown): string {
  const description = (property as { description?: unknown } | null)?.description;
  return typeof description === "string" && description.trim() !== "" ? `/** ${jsDocText(description)} */ ` : "";
}

/** Text made safe inside a JSDoc comment, on one line: no comment end, whitespace runs as one space. */
export function jsDocText(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/\s+/g, " ").trim();
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length === 1 ? unique[0]! : unique.map((part) => (part.includes("=>") ? `(${part})` : part)).join(" | ");
}

function isLiteral(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function unknownAt(out: TypeWriting, at: string): string {
  out.unknownAt.push(at);
  return "unknown";
}
