/**
 * Deep-copies a value so that State and its callers never share mutable data. Plain objects,
 * arrays, `Date`, `Map` and `Set` are copied; frozen objects (every `ChatMessage`) are immutable
 * and shared as they are; other class instances (clients, handles) are held by reference.
 */
export function cloneValue<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return value.map(cloneValue) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof Map) return new Map(Array.from(value, ([k, v]) => [k, cloneValue(v)])) as T;
  if (value instanceof Set) return new Set(Array.from(value, cloneValue)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const copy: Record<string, unknown> = proto === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) copy[key] = cloneValue((value as Record<string, unknown>)[key]);
  return copy as T;
}
