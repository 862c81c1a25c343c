/**
 * An independent reading of OpenAI's strict-mode rules (/work/shared/reference/openai-strict.md:
 * Structured Outputs' "supported schemas" and the API's error messages). It shares no code with
 * toolwright's converter (src/chat/toStrictSchema.ts) or its compatibility check, so that a
 * mistake in either is caught here instead of being agreed with.
 */

/** One broken rule: where (a JSON path into the schema, `$` for the root, and its segments) and what. */
export interface StrictViolation {
  readonly path: string;
  readonly segments: readonly string[];
  readonly message: string;
}

type Segments = readonly string[];

// `default` is on the documented list of unsupported keywords, but the API takes it: a recorded
// strict tool (test/fixtures/vendors/openai/responses-calculator.chunks.txt) has one. The API wins.
const allowedKeywords = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs", "definitions", "description", "title", "default",
  "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
]);
const allowedFormats = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const jsonTypes = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const maxObjectNesting = 10;
const maxProperties = 5000;
const maxEnumValues = 1000;
// OpenAI: "for a single enum property with more than 250 values, the total string length of all enum values cannot exceed 15,000 characters".
const largeEnum = 250;
const maxLargeEnumChars = 15_000;

interface Walk {
  readonly violations: StrictViolation[];
  report(at: Segments, message: string): void;
  readonly root: Record<string, unknown>;
  properties: number;
  enumValues: number;
}

/** Every rule of OpenAI strict mode that `schema` breaks, with the JSON path of each; empty when it passes. */
export function openaiStrictViolations(schema: unknown): StrictViolation[] {
  const violations: StrictViolation[] = [];
  const report = (segments: Segments, message: string) => violations.push({ path: jsonPath(segments), segments, message });
  if (!isObject(schema)) {
    report([], "the schema must be an object");
    return violations;
  }
  const walk: Walk = { violations, report, root: schema, properties: 0, enumValues: 0 };
  if (schema.type !== "object") report([], `the root must be type "object" (not anyOf), got ${JSON.stringify(schema.type ?? (schema.anyOf ? "anyOf" : null))}`);
  visit(schema, [], 0, walk);
  for (const key of ["$defs", "definitions"]) {
    const defs = schema[key];
    if (defs === undefined) continue;
    if (!isObject(defs)) report([key], `${key} must be an object of schemas`);
    else for (const [name, def] of Object.entries(defs)) visit(def, [key, name], 0, walk);
  }
  if (walk.properties > maxProperties) report([], `the schema has ${walk.properties} object properties in total, more than ${maxProperties}`);
  if (walk.enumValues > maxEnumValues) report([], `the schema has ${walk.enumValues} enum values in total, more than ${maxEnumValues}`);
  return violations;
}

/**
 * The message of OpenAI's 400 answer for the first violation, in the API's form:
 * `Invalid schema for function 'get_weather': In context=('properties', 'units'), … .`
 */
export function openaiStrictErrorMessage(subject: string, violations: readonly StrictViolation[]): string {
  const first = violations[0]!;
  const context = first.segments.length === 1 ? `('${first.segments[0]}',)` : `(${first.segments.map((s) => `'${s}'`).join(", ")})`;
  return `Invalid schema for ${subject}: In context=${context}, ${first.message}.`;
}

function visit(node: unknown, path: Segments, objectDepth: number, walk: Walk): void {
  const report = (message: string, at: Segments = path) => walk.report(at, message);
  if (typeof node === "boolean") return report(`boolean schemas are not supported, got ${String(node)}`);
  if (!isObject(node)) return report("a schema must be an object");
  for (const key of Object.keys(node)) {
    // `$schema` at the root is not in the documented list, but the API takes it: the openai SDK's own zodResponseFormat sends it.
    if (!allowedKeywords.has(key) && !(key === "$schema" && path.length === 0)) report(`'${key}' is not permitted`);
  }
  if (typeof node.$ref === "string") {
    const others = Object.keys(node).filter((key) => key !== "$ref");
    if (others.length > 0) report(`$ref cannot have keywords {${others.map((key) => `'${key}'`).join(", ")}}`);
    if (!resolves(walk.root, node.$ref)) report(`$ref '${node.$ref}' does not point to a definition in this schema`);
    return;
  }
  const types = typeList(node.type);
  if (node.type === undefined && node.anyOf === undefined && node.enum === undefined && node.const === undefined) report("schema must have a 'type' key");
  for (const type of types) if (!jsonTypes.has(type)) report(`'${type}' is not a JSON type`);
  if (node.format !== undefined && !allowedFormats.has(String(node.format))) report(`format '${String(node.format)}' is not supported`);
  if (node.enum !== undefined) checkEnum(node.enum, path, walk);
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) report("anyOf must be a non-empty array of schemas");
    else node.anyOf.forEach((branch, i) => visit(branch, [...path, "anyOf", String(i)], objectDepth, walk));
  }
  const isObjectNode = types.includes("object") || node.properties !== undefined;
  if (isObjectNode) checkObject(node, path, objectDepth + 1, walk);
  if (types.includes("array") || node.items !== undefined) {
    if (node.items === undefined) report("an array schema must have 'items'");
    else visit(node.items, [...path, "items"], objectDepth, walk);
  }
}

function checkObject(node: Record<string, unknown>, path: Segments, depth: number, walk: Walk): void {
  const report = (message: string) => walk.report(path, message);
  if (depth > maxObjectNesting) report(`objects are nested ${depth} levels deep, more than ${maxObjectNesting}`);
  if (node.additionalProperties !== false) report(`'additionalProperties' is required to be supplied and to be false`);
  const properties = node.properties ?? {};
  if (!isObject(properties)) return report("properties must be an object of schemas");
  const names = Object.keys(properties);
  walk.properties += names.length;
  const required = Array.isArray(node.required) ? node.required : [];
  if (node.required !== undefined && !Array.isArray(node.required)) report("required must be an array");
  const missing = names.filter((name) => !required.includes(name));
  if (missing.length > 0) report(`'required' is required to be supplied and to be an array including every key in properties. Missing ${missing.map((name) => `'${name}'`).join(", ")}`);
  const extra = required.filter((name) => typeof name !== "string" || !names.includes(name));
  if (extra.length > 0) report(`'required' lists keys that are not in properties: ${extra.map((name) => JSON.stringify(name)).join(", ")}`);
  for (const name of names) visit(properties[name], [...path, "properties", name], depth, walk);
}

function checkEnum(values: unknown, path: Segments, walk: Walk): void {
  if (!Array.isArray(values) || values.length === 0) {
    walk.report(path, "enum must be a non-empty array");
    return;
  }
  walk.enumValues += values.length;
  if (values.length > largeEnum) {
    const chars = values.reduce<number>((sum, value) => sum + (typeof value === "string" ? value.length : 0), 0);
    if (chars > maxLargeEnumChars) walk.report(path, `an enum of ${values.length} values has ${chars} characters of strings, more than ${maxLargeEnumChars}`);
  }
}

function resolves(root: Record<string, unknown>, ref: string): boolean {
  if (ref === "#") return true;
  if (!ref.startsWith("#/")) return false;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return isObject(node);
}

function typeList(type: unknown): string[] {
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.map(String) : [];
}

// `$.properties.units.anyOf[0]`: names as members, indexes (of anyOf) in brackets.
function jsonPath(segments: Segments): string {
  let path = "$";
  for (const [i, segment] of segments.entries()) {
    if (segments[i - 1] === "anyOf" && /^\d+$/.test(segment)) path += `[${segment}]`;
    else path += /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
