import { ConfigurationError, DefinitionError } from "../errors";

/**
 * Runs a factory on a definition's values (`options`, found at `path`): the `ConfigurationError`
 * it throws for a value becomes a `DefinitionError` at the value's path (`path`, then the error's
 * `optionPath`, an index into a list as a number: `patterns[1]`), with the factory's message.
 */
export function madeAt<T>(path: readonly (string | number)[], options: unknown, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof ConfigurationError) || error instanceof DefinitionError) throw error;
    throw new DefinitionError([...path, ...dataPath(options, error.optionPath ?? [])], error.message, { cause: error });
  }
}

// Option paths are strings; where the data is a list, its segment is the index.
function dataPath(options: unknown, optionPath: readonly string[]): (string | number)[] {
  let value = options;
  return optionPath.map((segment) => {
    const index = Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment;
    value = typeof value === "object" && value !== null && Object.hasOwn(value, segment) ? (value as Record<string, unknown>)[segment] : undefined;
    return index;
  });
}
