/**
 * True for any non-null object that is not an array. What a model returns is read with this rather
 * than a plain-object check: a stream's read results and a provider's objects may come from another
 * realm (Node's own web streams, a test sandbox), whose objects have another `Object.prototype`.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
