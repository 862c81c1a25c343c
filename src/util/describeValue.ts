import { isPlainObject } from "./isPlainObject";

/** Describes a value's kind for messages: `undefined`, `null`, `an array`, `a Date`, `string "abc"`. */
export function describeKind(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function";
  if (typeof value === "object") {
    const ctor = (value as { constructor?: { name?: string } }).constructor;
    return ctor && !isPlainObject(value) && ctor.name ? `a ${ctor.name}` : "an object";
  }
  if (typeof value === "bigint") return `bigint ${value}n`;
  if (typeof value === "symbol") return "a symbol";
  // JSON.stringify writes NaN and ±Infinity as null.
  if (typeof value === "number" && !Number.isFinite(value)) return `number ${value}`;
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}
