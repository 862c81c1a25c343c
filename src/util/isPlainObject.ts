/**
 * True for an object made by `{}`, `JSON.parse` or `Object.create(null)`: not an array, a Date or a
 * class instance. An object of another realm counts too (`Request.json()` under jest, `node:vm`):
 * its prototype is that realm's `Object.prototype`, which has no prototype of its own.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(value) === "[object Object]";
}
