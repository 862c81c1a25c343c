import type { z } from "zod";
import type { ZodSchema } from "../state/zodIntrospection";
import { compileJsonSchema } from "../tools/argumentValidator";
import type { JsonSchema } from "../tools/jsonSchema";
import { schemaPatterns } from "../tools/linearPattern";
import { subschemas } from "../tools/subschemas";
import { pointerToPath } from "../util/formatPath";
import { zod } from "../util/lazyZod";

// Where a schema's pattern keywords wait while zod converts the rest (an annotation zod carries as metadata).
const held = "x-toolwright-held-patterns";

/**
 * A zod type for a JSON Schema from outside the code (a definition's state type or outputSchema)
 * whose patterns run in linear time. zod's `fromJSONSchema` would turn `pattern` and
 * `patternProperties` into backtracking `RegExp`s (`^(a+)+$` and 40 characters stall the process),
 * some of them inside closures no one can reach afterwards. So zod converts the schema without
 * them (with `patternProperties`, also without `additionalProperties`, which depends on them);
 * they are put back into the type's metadata, so its JSON Schema form is unchanged; and the type
 * checks every value with ajv on RE2 against the whole schema. A schema without patterns is
 * converted as it is.
 */
export function linearZodType(schema: JsonSchema): ZodSchema {
  const z = zod();
  if (schemaPatterns(schema).length === 0) return z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema) as ZodSchema;
  const validate = compileJsonSchema(schema, "user");
  const registry = z.registry<Record<string, unknown>>();
  // fromJSONSchema records each node's annotations with add(); they go to the global registry
  // (which toJSONSchema reads), with the held keywords put back where they were.
  registry.add = (type, meta) => {
    z.globalRegistry.add(type, restored(meta) as z.core.GlobalMeta);
    return registry;
  };
  const converted = z.fromJSONSchema(withPatternsHeld(schema) as z.core.JSONSchema.JSONSchema, { registry }) as ZodSchema;
  return converted.check((payload) => {
    if (validate(payload.value)) return;
    for (const error of validate.errors ?? []) {
      payload.issues.push({ code: "custom", message: error.message ?? error.keyword, input: payload.value, path: pointerToPath(error.instancePath) as (string | number)[] });
    }
  }) as ZodSchema;
}

// A copy of the schema with each node's pattern keywords moved under `held`.
function withPatternsHeld(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const copy: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  const copied = new Set<object>([copy]);
  for (const { path } of subschemas(schema, [])) setAt(copy, path, withPatternsHeld(valueAt(schema, path)), copied);
  const keep: Record<string, unknown> = {};
  if (typeof copy.pattern === "string") keep.pattern = (schema as Record<string, unknown>).pattern;
  if (copy.patternProperties !== undefined) {
    keep.patternProperties = (schema as Record<string, unknown>).patternProperties;
    if (copy.additionalProperties !== undefined) keep.additionalProperties = (schema as Record<string, unknown>).additionalProperties;
  }
  for (const key of Object.keys(keep)) delete copy[key];
  if (Object.keys(keep).length > 0) copy[held] = keep;
  return copy;
}

// Metadata with every held keyword back in its place (zod carries some subschemas, such as
// propertyNames, into metadata as it found them).
function restored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restored);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== held) Object.defineProperty(out, key, { value: restored(item), enumerable: true, writable: true, configurable: true });
  const keep = (value as Record<string, unknown>)[held];
  if (typeof keep === "object" && keep !== null) Object.assign(out, keep);
  return out;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, segment) => (node as Record<string | number, unknown>)[segment], root);
}

function setAt(root: Record<string, unknown>, path: readonly (string | number)[], value: unknown, copied: Set<object>): void {
  // The containers on the way are copied (once), so the caller's schema is never changed.
  let node: Record<string | number, unknown> = root;
  for (const [index, segment] of path.entries()) {
    if (index === path.length - 1) {
      Object.defineProperty(node, segment, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    let child = node[segment] as Record<string | number, unknown>;
    if (!copied.has(child)) {
      child = (Array.isArray(child) ? [...child] : { ...child }) as Record<string | number, unknown>;
      copied.add(child);
      Object.defineProperty(node, segment, { value: child, enumerable: true, writable: true, configurable: true });
    }
    node = child;
  }
}
