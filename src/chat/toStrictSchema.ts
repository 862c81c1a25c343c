import { allowsNull, type JsonSchema } from "../tools/jsonSchema";

// Keywords strict mode accepts; everything else is dropped from the strict form (local validation
// still enforces what is dropped, such as minLength or default).
const kept = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
  "description", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
]);
const strictFormats = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/**
 * The strict form of a strict-compatible parameter schema (OpenAI Structured Outputs): every
 * property listed in `required`, the optional ones made nullable, `additionalProperties: false` on
 * every object, keywords strict mode rejects left out, and a `$ref` that carries a description
 * wrapped as `{ description, anyOf: [{ $ref }] }` (strict mode allows nothing beside `$ref`). The model then sends `null` for what it
 * leaves out; the tool-calling step turns that back into "absent" before validating.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema {
  return convert(schema, schema);
}

// An output schema is sent on every model call of every run that uses it.
const strictForms = new WeakMap<JsonSchema, JsonSchema>();

/** The strict form of a schema that does not change (a run's answer schema), made once per schema object. */
export function strictFormOf(schema: JsonSchema): JsonSchema {
  let strict = strictForms.get(schema);
  if (!strict) strictForms.set(schema, (strict = toStrictSchema(schema)));
  return strict;
}

function convert(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!kept.has(key)) continue;
    if (key === "format" && !strictFormats.has(String(value))) continue;
    out[key] = value;
  }
  // Strict mode rejects `default`; the model still learns it from the description.
  if (schema.default !== undefined) out.description = withDefault(schema.description, schema.default);
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const strictProperty = convert(property, root);
        return [name, required.has(name) || allowsNull(property, root) ? strictProperty : nullable(strictProperty)];
      }),
    );
    out.required = Object.keys(schema.properties);
  }
  const isObject = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object")) || schema.properties !== undefined;
  if (isObject) {
    out.additionalProperties = false;
    out.properties ??= {};
    out.required ??= [];
  }
  if (schema.items && typeof schema.items === "object") out.items = convert(schema.items, root);
  if (schema.anyOf) out.anyOf = schema.anyOf.map((branch) => convert(branch, root));
  // Draft-07 `definitions` too: dropping them would leave their `$ref`s dangling.
  for (const key of ["$defs", "definitions"] as const) {
    const defs = schema[key] as Record<string, JsonSchema> | undefined;
    if (defs) out[key] = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, convert(def, root)]));
  }
  // Strict mode rejects keywords beside a `$ref` ("$ref cannot have keywords {'description'}"):
  // the description (which may have a default folded in) moves onto a one-branch anyOf around
  // it; other constraints are dropped here and still enforced by local validation.
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    return out.description === undefined ? { $ref: out.$ref } : { description: out.description, anyOf: [{ $ref: out.$ref }] };
  }
  return out;
}

/** `Maximum results. Default: 5.`, or `Default: 5.` without a description. */
function withDefault(description: unknown, value: unknown): string {
  const text = typeof description === "string" ? description.trim() : "";
  const sentence = `Default: ${JSON.stringify(value)}.`;
  if (text === "") return sentence;
  return /[.!?]$/.test(text) ? `${text} ${sentence}` : `${text}. ${sentence}`;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum)) {
    return { ...schema, ...(schema.type !== undefined && { type: [...([] as string[]).concat(schema.type), "null"] }), enum: [...schema.enum, null] };
  }
  // A const would still refuse null with a widened type, so it goes into anyOf below.
  if (typeof schema.type === "string" && schema.type !== "object" && schema.type !== "array" && schema.const === undefined) return { ...schema, type: [schema.type, "null"] };
  if (schema.anyOf) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  const { description, ...rest } = schema;
  return { ...(description !== undefined && { description }), anyOf: [rest, { type: "null" }] };
}
