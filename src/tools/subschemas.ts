// Keywords whose value is a schema (or, for draft-07 `items`, an array of schemas), an array of
// schemas, or a map of names to schemas. Other keywords (`default`, `const`, `enum`, `examples`,
// annotations) hold instance data, not schemas.
const schemaKeywords = new Set(["items", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "propertyNames", "contains", "not", "if", "then", "else", "contentSchema"]);
const schemaArrayKeywords = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const schemaMapKeywords = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/** A schema inside another, and its place (JSON Pointer segments from the outer schema's root). */
export interface Subschema {
  readonly schema: unknown;
  readonly path: readonly (string | number)[];
}

/** The schemas directly inside `schema` (at `path`), in key order; a value that is not an object is skipped. */
export function subschemas(schema: unknown, path: readonly (string | number)[]): Subschema[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [];
  const found: Subschema[] = [];
  const add = (value: unknown, at: (string | number)[]) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) found.push({ schema: value, path: at });
  };
  for (const [key, value] of Object.entries(schema)) {
    if (schemaKeywords.has(key)) {
      if (Array.isArray(value)) value.forEach((item, index) => add(item, [...path, key, index]));
      else add(value, [...path, key]);
    } else if (schemaArrayKeywords.has(key) && Array.isArray(value)) {
      value.forEach((item, index) => add(item, [...path, key, index]));
    } else if (schemaMapKeywords.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [name, sub] of Object.entries(value)) add(sub, [...path, key, name]);
    }
  }
  return found;
}
