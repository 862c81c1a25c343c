import { isImmutable } from "./immutable";
import { setOwn } from "./ownProperty";

/**
 * Deep-copies a value so that State and its callers never share mutable data. Plain objects,
 * arrays, `Date`, `Map` and `Set` are copied, frozen or not (a frozen object can hold mutable
 * parts); values marked immutable (every `ChatMessage`) are shared as they are; other class
 * instances (clients, handles) are held by reference. A key named `__proto__` stays own data. A
 * value that refers to itself is copied with the same shape (the copy refers to the copy).
 */
export function cloneValue<T>(value: T): T {
  return cloneWith(value, new Map());
}

function cloneWith<T>(value: T, copies: Map<object, unknown>): T {
  if (value === null || typeof value !== "object" || isImmutable(value)) return value;
  const known = copies.get(value);
  if (known !== undefined) return known as T;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    copies.set(value, copy);
    value.forEach((item, i) => (copy[i] = cloneWith(item, copies)));
    return copy as T;
  }
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof Map) {
    const copy = new Map();
    copies.set(value, copy);
    for (const [k, v] of value) copy.set(k, cloneWith(v, copies));
    return copy as T;
  }
  if (value instanceof Set) {
    const copy = new Set();
    copies.set(value, copy);
    for (const item of value) copy.add(cloneWith(item, copies));
    return copy as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = proto === null ? Object.create(null) : {};
  copies.set(value, copy);
  for (const key of Object.keys(value)) setOwn(copy, key, cloneWith((value as Record<string, unknown>)[key], copies));
  return copy as T;
}
