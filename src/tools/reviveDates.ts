import { setOwn } from "../util/ownProperty";
import { type JsonSchema } from "./jsonSchema";

/**
 * Returns a copy of `value` in which every string at a schema location listed in `pointers`
 * (JSON Pointers such as `#/properties/from` or `#/$defs/Event/properties/at`) is a `Date`.
 */
export function reviveDates(value: unknown, root: JsonSchema, pointers: ReadonlySet<string>): unknown {
  return walk(value, root, "#", root, pointers, 0);
}

function walk(value: unknown, schema: JsonSchema, pointer: string, root: JsonSchema, pointers: ReadonlySet<string>, depth: number): unknown {
  if (depth > 64 || value === null || value === undefined) return value;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith("#")) {
    const target = lookup(root, schema.$ref);
    if (target) return walk(value, target, schema.$ref, root, pointers, depth + 1);
  }
  if (typeof value === "string") return pointers.has(pointer) ? new Date(value) : value;
  let out: unknown = value;
  for (const [i, branch] of (schema.anyOf ?? []).entries()) out = walk(out, branch, `${pointer}/anyOf/${i}`, root, pointers, depth + 1);
  if (Array.isArray(out)) {
    return out.map((item, i) => {
      const prefix = schema.prefixItems?.[i];
      if (prefix) return walk(item, prefix, `${pointer}/prefixItems/${i}`, root, pointers, depth + 1);
      return typeof schema.items === "object" ? walk(item, schema.items, `${pointer}/items`, root, pointers, depth + 1) : item;
    });
  }
  if (typeof out === "object" && !(out instanceof Date)) {
    const copy: Record<string, unknown> = { ...(out as Record<string, unknown>) };
    for (const [key, item] of Object.entries(copy)) {
      const propSchema = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (propSchema) setOwn(copy, key, walk(item, propSchema, `${pointer}/properties/${escape(key)}`, root, pointers, depth + 1));
      else if (typeof schema.additionalProperties === "object") {
        setOwn(copy, key, walk(item, schema.additionalProperties, `${pointer}/additionalProperties`, root, pointers, depth + 1));
      }
    }
    return copy;
  }
  return out;
}

function lookup(root: JsonSchema, ref: string): JsonSchema | undefined {
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return node !== null && typeof node === "object" ? (node as JsonSchema) : undefined;
}

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
