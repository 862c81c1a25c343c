/**
 * Freezes a plain JSON-like value and everything in it, in place, and returns it. For values
 * toolwright built itself (validated arguments, parsed decisions) before handing them to code that
 * must not change them. Depth is bounded by the caller (arguments are screened first).
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
