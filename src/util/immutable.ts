const immutableValues = new WeakSet<object>();

/**
 * Marks an object as deeply immutable (a `ChatMessage`), so copies may share it. Freezing alone
 * is not enough: an object frozen only at its top can still change underneath.
 */
export function markImmutable(value: object): void {
  immutableValues.add(value);
}

/** True for an object marked with `markImmutable`. */
export function isImmutable(value: object): boolean {
  return immutableValues.has(value);
}
