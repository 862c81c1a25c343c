import { setOwn } from "../util/ownProperty";
import { allowsNull, type JsonSchema, resolveRef } from "./jsonSchema";

/**
 * Returns a copy of `value` in which every `null` given for an optional property that does not
 * itself accept `null` is removed, at any depth the schema describes. Models in strict mode send
 * `null` for what they leave out; removing it lets the parameter's default apply.
 */
export function stripOptionalNulls(value: unknown, schema: JsonSchema, root: JsonSchema = schema): unknown {
  if (value === null || typeof value !== "object") return value;
  const s = resolveRef(schema, root);
  if (Array.isArray(value)) {
    const array = arrayBranch(s, root);
    if (!array) return value;
    return value.map((item, i) => {
      const itemSchema = array.prefixItems?.[i] ?? (typeof array.items === "object" ? array.items : undefined);
      return itemSchema ? stripOptionalNulls(item, itemSchema, root) : item;
    });
  }
  const branch = objectBranch(s, root, value);
  if (!branch?.properties) return value;
  // Most arguments are flat and have no null: a copy is all they need.
  if (isFlatWithoutNull(value)) return { ...value };
  const required = requiredOf(branch);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const propSchema = Object.hasOwn(branch.properties, key) ? branch.properties[key] : undefined;
    if (!propSchema) {
      setOwn(out, key, item);
    } else if (item === null && !required.has(key) && !allowsNull(propSchema, root)) {
      continue;
    } else {
      setOwn(out, key, stripOptionalNulls(item, propSchema, root));
    }
  }
  return out;
}

// True when no property value is null, an object or an array (spreading keeps a `__proto__` key as own data).
function isFlatWithoutNull(value: object): boolean {
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === null || typeof item === "object") return false;
  }
  return true;
}

// The required names of an object schema, as a Set made once per schema (schemas do not change).
const requiredSets = new WeakMap<JsonSchema, ReadonlySet<string>>();

function requiredOf(schema: JsonSchema): ReadonlySet<string> {
  let required = requiredSets.get(schema);
  if (!required) requiredSets.set(schema, (required = new Set(schema.required ?? [])));
  return required;
}

// For `X | null` written as anyOf, the object branch is the one to follow; of several object
// branches (a union), the one that declares exactly the value's keys (a strict-mode model sends
// every key of its branch), else the first that declares all of them.
function objectBranch(schema: JsonSchema, root: JsonSchema, value: object): JsonSchema | undefined {
  if (schema.properties) return schema;
  const branches = branchesOf(schema, root).filter((b) => b.properties);
  if (branches.length <= 1) return branches[0];
  const keys = Object.keys(value);
  const covering = branches.filter((b) => keys.every((key) => Object.hasOwn(b.properties!, key)));
  return covering.find((b) => Object.keys(b.properties!).length === keys.length) ?? covering[0];
}

// For `X[] | null` written as anyOf, the array branch.
function arrayBranch(schema: JsonSchema, root: JsonSchema): JsonSchema | undefined {
  if (schema.items !== undefined || schema.prefixItems !== undefined) return schema;
  const branches = branchesOf(schema, root).filter((b) => b.items !== undefined || b.prefixItems !== undefined);
  return branches.length === 1 ? branches[0] : undefined;
}

// The branches of a union, nested unions (`(X | null) | null`) flattened, each `$ref` resolved.
function branchesOf(schema: JsonSchema, root: JsonSchema, depth = 0): JsonSchema[] {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches || depth > 8) return [schema];
  return branches.flatMap((branch) => branchesOf(resolveRef(branch, root), root, depth + 1));
}
