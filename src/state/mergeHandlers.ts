/**
 * How a value written to a state key is combined with the value already there: `(current,
 * incoming) => merged`. `current` is `undefined` when the key has no value yet.
 */
export type MergeHandler<T = any> = (current: T | undefined, incoming: T) => T; // eslint-disable-line @typescript-eslint/no-explicit-any -- handlers are written against the key's own type

/**
 * Appends: `undefined`/`null` current counts as `[]`, a non-list value on either side as a
 * one-item list. Returns a new list and mutates neither input. The default for list-typed keys.
 */
export function mergeLists<T>(current: T[] | T | null | undefined, incoming: T[] | T): T[] {
  const head = current === undefined || current === null ? [] : Array.isArray(current) ? current : [current];
  const tail = Array.isArray(incoming) ? incoming : [incoming];
  return [...head, ...tail];
}

/** Returns `incoming`: the last write wins. The default for keys that are not lists. */
export function replaceValues<T>(_current: T | undefined, incoming: T): T {
  return incoming;
}
