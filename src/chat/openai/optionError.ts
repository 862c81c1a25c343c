import { ConfigurationError } from "../../errors";

// The option each error is about, for the definition loader to locate it; a WeakMap keeps the
// errors' own fields as ConfigurationError's.
const optionPaths = new WeakMap<object, readonly string[]>();

/** A ConfigurationError about the generator option at `option` (`["timeout"]`, `["generationKwargs", "conversation"]`). */
export function optionError(subject: string, option: readonly string[], message: string): ConfigurationError {
  const error = new ConfigurationError(subject, message);
  optionPaths.set(error, Object.freeze([...option]));
  return error;
}

/** The option an error from `optionError` is about, or `undefined` for any other error. */
export function optionPathOf(error: unknown): readonly string[] | undefined {
  return typeof error === "object" && error !== null ? optionPaths.get(error) : undefined;
}
