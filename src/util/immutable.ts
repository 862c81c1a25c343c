const checks: Array<(value: object) => boolean> = [];

/**
 * Registers how to recognise a class of deeply immutable objects (`ChatMessage`), so copies may
 * share them: a brand check on a private field, which no other object can pass (a spread or
 * `Object.create` copy included). Freezing alone is not enough: an object frozen only at its top
 * can still change underneath.
 */
export function registerImmutable(check: (value: object) => boolean): void {
  checks.push(check);
}

/** True for an object of a class registered with `registerImmutable`. */
export function isImmutable(value: object): boolean {
  for (const check of checks) if (check(value)) return true;
  return false;
}
