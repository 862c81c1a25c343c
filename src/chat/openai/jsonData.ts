import { DefinitionError } from "../../errors";
import type { JsonValue } from "../../state/jsonCodec";
import { describeKind } from "../../util/describeValue";
import { isPlainObject } from "../../util/isPlainObject";
import { findShapeProblem } from "../../util/jsonShape";
import { limits } from "../../util/limits";
import { setOwn } from "../../util/ownProperty";

/**
 * A fresh copy of `value` as JSON data, for a definition: strings, finite numbers, booleans, null,
 * arrays and plain objects, nested at most `limits.maxArgumentDepth` levels. An undefined property
 * is left out and an undefined array item becomes null, as `JSON.stringify` writes them. Throws
 * DefinitionError at the path (under `path`) of anything else.
 */
export function copyJsonData(value: unknown, path: readonly (string | number)[]): JsonValue {
  const problem = findShapeProblem(value, { maxDepth: limits.maxArgumentDepth });
  if (problem) {
    const at = [...path, ...problem.path.map((key) => (typeof key === "number" ? key : String(key)))];
    throw new DefinitionError(at, `nests deeper than ${limits.maxArgumentDepth} levels (or contains itself), past the limit; give plain JSON data.`);
  }
  return copy(value, path);
}

function copy(value: unknown, path: readonly (string | number)[]): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (let i = 0; i < value.length; i++) out.push(value[i] === undefined ? null : copy(value[i], [...path, i]));
    return out;
  }
  if (isPlainObject(value)) {
    const out: { [key: string]: JsonValue } = {};
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (item !== undefined) setOwn(out, key, copy(item, [...path, key]));
    }
    return out;
  }
  throw new DefinitionError(path, `is ${describeKind(value)}, which has no JSON form; give JSON data (strings, finite numbers, true or false, null, arrays and plain objects).`);
}
