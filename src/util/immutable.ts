// A symbol only toolwright holds, as a non-enumerable own property: spreading or Object.assign-ing
// a marked object does not carry the mark over, and no one else can set it. (A WeakSet did the same
// at several times the cost per message, and gave the garbage collector weak references to process.)
const immutableBrand = Symbol("toolwright.immutable");

/**
 * Marks an object as deeply immutable (a `ChatMessage`), so copies may share it; call before
 * freezing it. Freezing alone is not enough: an object frozen only at its top can still change
 * underneath.
 */
export function markImmutable(value: object): void {
  Object.defineProperty(value, immutableBrand, { value: true });
}

/** True for an object marked with `markImmutable`. */
export function isImmutable(value: object): boolean {
  return (value as { [immutableBrand]?: true })[immutableBrand] === true;
}
