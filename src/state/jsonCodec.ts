import { ChatMessage } from "../chat/chatMessage";
import { JsonFormError } from "../errors";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";
import { describeKind } from "../util/describeValue";
import { setOwn } from "../util/ownProperty";
import { type ZodSchema, zodDef } from "./zodIntrospection";
import { isPlainObject } from "../util/isPlainObject";

/** A value with a JSON form. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Converts a state value to plain JSON: `Date` → ISO string, anything with `toJSON()` (such as
 * `ChatMessage`) → its JSON. Throws a `JsonFormError` naming the path of a value with no JSON form,
 * followed by `fix` (what the caller's user should do about it).
 */
export function toJsonValue(value: unknown, path: PropertyKey[] = [], fix = "", seen: Set<object> = new Set()): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw noJsonForm(path, fix, `the number ${value}`);
    return value;
  }
  if (typeof value === "object") {
    if (value instanceof Map || value instanceof Set) throw noJsonForm(path, fix, describeKind(value));
    if (seen.has(value)) throw noJsonForm(path, fix, "a circular reference");
    seen.add(value);
    try {
      const withToJSON = value as { toJSON?: () => unknown };
      if (typeof withToJSON.toJSON === "function") return toJsonValue(withToJSON.toJSON(), path, fix, seen);
      if (Array.isArray(value)) return value.map((item, i) => (item === undefined ? null : toJsonValue(item, [...path, i], fix, seen)));
      const out: { [key: string]: JsonValue } = {};
      for (const [key, item] of Object.entries(value)) if (item !== undefined && typeof item !== "function") setOwn(out, key, toJsonValue(item, [...path, key], fix, seen));
      return out;
    } finally {
      seen.delete(value);
    }
  }
  throw noJsonForm(path, fix, describeKind(value));
}

function noJsonForm(path: PropertyKey[], fix: string, what: string): JsonFormError {
  return new JsonFormError({ path, value: what, fix });
}

/**
 * Rebuilds a value from its JSON form, guided by the zod schema that describes it: ISO strings
 * where the schema has `z.date()` become `Date`s, message JSON where it has a ChatMessage becomes
 * a `ChatMessage`, and an image's or a file's JSON where it has an `ImageContent` or a
 * `FileContent` becomes one. Everything else is returned as it is; the caller validates the result.
 */
export function fromJsonValue(schema: ZodSchema, json: unknown): unknown {
  const def = zodDef(schema);
  switch (def.type) {
    case "date":
      // toJsonValue writes Dates as ISO strings only; reviving numbers too would turn the number
      // option of z.union([z.date(), z.number()]) into a Date.
      return typeof json === "string" ? new Date(json) : json;
    case "custom":
      return reviveCustom(schema, json);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return json === null || json === undefined ? json : fromJsonValue(def.innerType as ZodSchema, json);
    case "pipe":
      return fromJsonValue(def.in as ZodSchema, json);
    case "lazy":
      return fromJsonValue((def.getter as () => ZodSchema)(), json);
    case "array":
      return Array.isArray(json) ? json.map((item) => fromJsonValue(def.element as ZodSchema, item)) : json;
    case "tuple": {
      if (!Array.isArray(json)) return json;
      const items = def.items as ZodSchema[];
      const rest = def.rest as ZodSchema | null | undefined;
      return json.map((item, i) => {
        const itemSchema = items[i] ?? rest;
        return itemSchema ? fromJsonValue(itemSchema, item) : item;
      });
    }
    case "object": {
      if (!isPlainObject(json)) return json;
      const shape = def.shape as Record<string, ZodSchema>;
      const catchall = def.catchall as ZodSchema | undefined;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(json)) {
        const itemSchema = Object.hasOwn(shape, key) ? shape[key] : catchall;
        setOwn(out, key, itemSchema ? fromJsonValue(itemSchema, item) : item);
      }
      return out;
    }
    case "record": {
      if (!isPlainObject(json)) return json;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(json)) setOwn(out, key, fromJsonValue(def.valueType as ZodSchema, item));
      return out;
    }
    case "union": {
      for (const option of def.options as ZodSchema[]) {
        const revived = fromJsonValue(option, json);
        if (option.safeParse(revived).success) return revived;
      }
      return json;
    }
    case "intersection":
      return fromJsonValue(def.right as ZodSchema, fromJsonValue(def.left as ZodSchema, json));
    default:
      return json;
  }
}

function reviveCustom(schema: ZodSchema, json: unknown): unknown {
  if (!isPlainObject(json)) return json;
  const media = reviveMedia(schema, json);
  if (media !== undefined) return media;
  if (!("role" in json) || !("content" in json)) return json;
  try {
    const message = ChatMessage.fromJSON(json);
    return schema.safeParse(message).success ? message : json;
  } catch {
    return json;
  }
}

// An image's or a file's JSON form (their toJSON), revived when the schema takes the object it makes.
function reviveMedia(schema: ZodSchema, json: Record<string, unknown>): unknown {
  const revive = "base64_image" in json || ("url" in json && "detail" in json) ? ImageContent.fromJSON : "base64_data" in json || ("url" in json && "filename" in json) ? FileContent.fromJSON : undefined;
  if (!revive) return undefined;
  try {
    const media = revive(json);
    return schema.safeParse(media).success ? media : undefined;
  } catch {
    return undefined;
  }
}
