import type { z } from "zod";

/** Any zod (v4) schema. */
export type ZodSchema = z.ZodType;

interface ZodDef {
  type: string;
  innerType?: ZodSchema;
  element?: ZodSchema;
  checks?: unknown[];
}

/** True for a zod v4 schema (duck-typed, so a second copy of zod is recognised too). */
export function isZodSchema(value: unknown): value is ZodSchema {
  return (
    typeof value === "object" &&
    value !== null &&
    "_zod" in value &&
    typeof (value as { safeParse?: unknown }).safeParse === "function"
  );
}

/**
 * Why `value` cannot be used although it is a zod schema: a zod 3 schema (it has `_def` but no
 * `_zod`), which toolwright cannot read. Undefined for anything else, zod 4 schemas included.
 * Callers append it to their "expected a zod schema" message.
 */
export function zodVersionProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || "_zod" in value) return undefined;
  const def = (value as { _def?: unknown })._def;
  if (typeof def !== "object" || def === null) return undefined;
  const typeName = (def as { typeName?: unknown }).typeName;
  const which = typeof typeName === "string" && typeName.startsWith("Zod") ? `a zod 3 schema (${typeName})` : "a zod 3 schema";
  return `this is ${which}; toolwright needs zod 4 (npm i zod@^4)`;
}

/** The schema's definition record (`schema._zod.def`). */
export function zodDef(schema: ZodSchema): ZodDef & Record<string, unknown> {
  return (schema as unknown as { _zod: { def: ZodDef & Record<string, unknown> } })._zod.def;
}

const transparentWrappers = new Set(["optional", "nullable", "default", "prefault", "nonoptional"]);

/** Strips `optional`/`nullable`/`default` wrappers; returns the inner schema. */
export function unwrapZod(schema: ZodSchema): ZodSchema {
  let current = schema;
  for (let def = zodDef(current); transparentWrappers.has(def.type) && def.innerType; def = zodDef(current)) {
    current = def.innerType;
  }
  return current;
}

/** True when the schema (after unwrapping optional/nullable/default) is an array. */
export function isZodArray(schema: ZodSchema): boolean {
  return zodDef(unwrapZod(schema)).type === "array";
}

/**
 * The element schema when items can be validated one by one and appended: an array (behind
 * optional/nullable/default only) with no checks, on it or on a wrapper, such as `.min()` or
 * `.refine()`. Otherwise undefined.
 */
export function appendableElement(schema: ZodSchema): ZodSchema | undefined {
  // A check on a wrapper (`z.array(x).optional().refine(...)`) constrains the whole list too.
  let def = zodDef(schema);
  while (!(def.checks && def.checks.length > 0) && transparentWrappers.has(def.type) && def.innerType) def = zodDef(def.innerType);
  if (def.type !== "array" || (def.checks && def.checks.length > 0)) return undefined;
  return def.element;
}
