/**
 * Sets `key` on `target` as an own data property. Plain assignment treats the key `__proto__` as
 * the prototype, so a JSON key named `__proto__` (which `JSON.parse` keeps as own data) would give
 * the copy a foreign prototype; this keeps it own data like any other key.
 */
export function setOwn(target: object, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}
