import { ConfigurationError } from "../../errors";

/** A ConfigurationError about the generator option at `option` (`["timeout"]`, `["generationKwargs", "conversation"]`), kept as its `optionPath`. */
export function optionError(subject: string, option: readonly string[], message: string): ConfigurationError {
  return new ConfigurationError(subject, message, { optionPath: option });
}
