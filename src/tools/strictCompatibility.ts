import type { JsonSchema } from "./jsonSchema";

/** Whether a parameter schema can be sent to OpenAI in strict mode, and why not when it cannot. */
export type StrictCompatibility = { readonly compatible: true } | { readonly compatible: false; readonly reason: string };

// Keywords OpenAI strict mode rejects and that change what a value may be, so they cannot be dropped.
const structuralKeywords = ["allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "contains", "prefixItems"];

const maxDepth = 10;
const maxProperties = 5000;
const maxEnumValues = 1000;

/**
 * Checks a tool's parameter schema against OpenAI's strict function-calling rules: an object root,
 * no open maps (`additionalProperties` with a schema, or objects without properties), no
 * `allOf`/`oneOf`/`not`/tuples/`patternProperties`/`propertyNames`, every node typed (`type`,
 * `anyOf`, `$ref`, `enum` or `const`: not `{}` nor a boolean schema), local `$ref`s only, at most
 * 10 levels of nesting, 5,000 properties and 1,000 enum values. Constraint keywords strict mode
 * lacks (`minLength`, `default`, …) do not count: the strict form drops them and local validation
 * still enforces them. Nor does a `$ref` with keywords beside it: the strict form keeps only its
 * description, wrapped as `{ description, anyOf: [{ $ref }] }`.
 */
export function strictCompatibility(schema: JsonSchema): StrictCompatibility {
  if (schema.type !== "object") return { compatible: false, reason: "the parameters are not an object" };
  const counts = { properties: 0, enumValues: 0 };
  const reason = visit(schema, "parameters", 1, counts) ?? visitDefs(schema, counts);
  if (reason) return { compatible: false, reason };
  if (counts.properties > maxProperties) return { compatible: false, reason: `it has ${counts.properties} properties (strict mode allows ${maxProperties})` };
  if (counts.enumValues > maxEnumValues) return { compatible: false, reason: `it has ${counts.enumValues} enum values (strict mode allows ${maxEnumValues})` };
  return { compatible: true };
}

function visitDefs(schema: JsonSchema, counts: { properties: number; enumValues: number }): string | undefined {
  const definitions = { ...((schema.definitions as Record<string, JsonSchema> | undefined) ?? {}), ...(schema.$defs ?? {}) };
  for (const [name, def] of Object.entries(definitions)) {
    const reason = visit(def, `$defs.${name}`, 1, counts);
    if (reason) return reason;
  }
  return undefined;
}

function visit(schema: JsonSchema | boolean, where: string, depth: number, counts: { properties: number; enumValues: number }): string | undefined {
  if (typeof schema === "boolean") return `${where} is the boolean schema ${String(schema)}, which strict mode does not support`;
  if (typeof schema !== "object" || schema === null) return undefined;
  if (depth > maxDepth) return `${where} is nested more than ${maxDepth} levels deep`;
  const isObject = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
  // Checked before the keywords: a zod record also carries 'propertyNames', and "open map" is the reason that helps.
  if (isObject && (typeof schema.additionalProperties === "object" || schema.additionalProperties === true)) {
    return `${where} is an open map (additionalProperties), which strict mode does not support`;
  }
  for (const keyword of structuralKeywords) {
    if (schema[keyword] !== undefined) return `${where} uses '${keyword}'${keyword === "prefixItems" ? " (a tuple)" : ""}, which strict mode does not support`;
  }
  if (typeof schema.$ref === "string" && !schema.$ref.startsWith("#")) return `${where} refers to an external schema (${schema.$ref})`;
  if (schema.type === undefined && schema.anyOf === undefined && schema.$ref === undefined && schema.enum === undefined && schema.const === undefined) {
    return `${where} has no type, so it accepts any JSON value, which strict mode does not support (it needs 'type', 'anyOf', '$ref', 'enum' or 'const')`;
  }
  if (Array.isArray(schema.enum)) counts.enumValues += schema.enum.length;
  if (isObject && !schema.properties && where !== "parameters") return `${where} is an object without declared properties`;
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    counts.properties += 1;
    const reason = visit(prop, `${where}.${name}`, depth + 1, counts);
    if (reason) return reason;
  }
  if (typeof schema.items === "object" || typeof schema.items === "boolean") {
    const reason = visit(schema.items, `${where}[]`, depth + 1, counts);
    if (reason) return reason;
  }
  for (const branch of schema.anyOf ?? []) {
    const reason = visit(branch, where, depth, counts);
    if (reason) return reason;
  }
  return undefined;
}
