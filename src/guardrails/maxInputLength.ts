import { ConfigurationError } from "../errors";
import type { Guardrail } from "./guardrail";
import { type BuiltinVerdict, builtinOptions, failedVerdict } from "./builtinVerdict";

/** Options of `maxInputLength`. */
export interface MaxInputLengthOptions {
  /** The most characters (UTF-16 code units, as `String.length` counts) the text may have. */
  readonly chars: number;
  /** What a longer text gets; default `"trip"`. */
  readonly verdict?: BuiltinVerdict;
  /** The guardrail's name; default `"max-input-length"`. */
  readonly name?: string;
}

/** A guardrail that fails a text longer than `chars` characters (at any point: it reads `input.text`). */
export function maxInputLength(options: MaxInputLengthOptions): Guardrail {
  const chars = options?.chars;
  if (!Number.isSafeInteger(chars) || chars < 0) {
    throw new ConfigurationError("maxInputLength", `maxInputLength needs chars, a whole number of characters of at least 0, got ${JSON.stringify(chars) ?? String(chars)}.`, { optionPath: ["chars"] });
  }
  const { verdict, name } = builtinOptions("maxInputLength", options, "max-input-length");
  return {
    name,
    check({ text }) {
      if (text.length <= chars) return { pass: true };
      return failedVerdict(verdict, `The text is ${text.length} ${text.length === 1 ? "character" : "characters"} long, over the limit of ${chars}; shorten it.`, { length: text.length, limit: chars });
    },
  };
}
