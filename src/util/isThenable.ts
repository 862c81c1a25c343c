/** Whether a value a callback returned is a promise (or any thenable) to wait for or to watch. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}
