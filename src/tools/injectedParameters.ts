import { toJsonValue } from "../state/jsonCodec";
import { isPlainObject } from "../util/isPlainObject";
import { compileJsonSchema } from "./argumentValidator";
import type { SchemaOrigin } from "./schemaOrigin";
import type { JsonSchema } from "./jsonSchema";

/** A parameter that `inputsFromState` fills, as the tool declared it. */
export interface InjectedParameter {
  /** Whether the tool needs a value: without one it does not run. */
  readonly required: boolean;
  /** The parameter's JSON Schema, when the tool declared a type for it. */
  readonly schema: JsonSchema | undefined;
  /** Where the schema comes from (how its patterns run). */
  readonly origin: SchemaOrigin;
}

/** The declared requiredness and type of each injected parameter, by parameter name. */
export function injectedParameters(schema: JsonSchema, names: ReadonlySet<string>, origin: SchemaOrigin): ReadonlyMap<string, InjectedParameter> {
  const required = new Set(schema.required ?? []);
  const out = new Map<string, InjectedParameter>();
  for (const name of names) {
    const declared = schema.properties && Object.hasOwn(schema.properties, name) ? schema.properties[name] : undefined;
    const typed = declared !== undefined && Object.keys(declared).some((k) => k !== "description");
    out.set(name, { required: required.has(name), schema: typed ? declared : undefined, origin });
  }
  return out;
}

/**
 * Why a state value cannot fill an injected parameter, or undefined when it can: a required
 * parameter whose key has no value, or a value that does not match the parameter's declared type.
 * The problem names the type only, never the value (it may be a secret the model must not see).
 * Values that are not plain data (class instances such as clients) are not type-checked.
 */
export function injectionProblem(parameter: InjectedParameter, value: unknown): string | undefined {
  if (value === undefined) return parameter.required ? "has no value" : undefined;
  if (!parameter.schema || !isCheckable(value)) return undefined;
  let json: unknown;
  try {
    json = toJsonValue(value);
  } catch {
    return undefined;
  }
  const validate = compileJsonSchema(parameter.schema, parameter.origin);
  if (validate(json)) return undefined;
  const expected = typeOf(parameter.schema);
  return `holds ${kindOf(value)}${expected ? `, but the parameter takes ${expected}` : ", which does not match the parameter's type"}`;
}

function isCheckable(value: unknown): boolean {
  return value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Date || isPlainObject(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a Date";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** The JSON Schema `type` of a schema, in words (`a string`, `a number or null`), when it has one. */
export function typeOf(schema: JsonSchema): string | undefined {
  const types = ([] as unknown[]).concat(schema.type ?? []).filter((t): t is string => typeof t === "string");
  if (types.length === 0) return undefined;
  return types.map((t) => (t === "array" || t === "object" || t === "integer" ? `an ${t}` : t === "null" ? "null" : `a ${t}`)).join(" or ");
}
