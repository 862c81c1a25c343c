import { gptTokenCounter } from "../context/gptTokenCounter";
import { estimateTokenCounter, type TokenCounter } from "../context/tokenCounter";
import { DefinitionError } from "../errors";

/** A token counter by name in a definition (`compaction.tokenCounter`): `"estimate"` (`estimateTokenCounter`) or `"gpt"` (`gptTokenCounter()`, o200k_base). */
export type TokenCounterName = "estimate" | "gpt";

// gptTokenCounter loads its encoding on the first count, in the middle of a run; a definition
// that names it learns at load time that the package is missing.
const gptEncodingModule = "gpt-tokenizer/encoding/o200k_base";

/**
 * The counter `name` stands for. `"gpt"` needs the optional peer `gpt-tokenizer`: when `resolve`
 * cannot find it, a `DefinitionError` at `path` says how to install it or what to use instead.
 */
export function tokenCounterFromDefinition(name: TokenCounterName, path: readonly (string | number)[], resolve: (id: string) => string = require.resolve): TokenCounter {
  if (name === "estimate") return estimateTokenCounter;
  try {
    resolve(gptEncodingModule);
  } catch (error) {
    throw new DefinitionError(path, `is "gpt", which counts with the gpt-tokenizer package, and it is not installed; run npm i gpt-tokenizer, or use "estimate" (a tokenizer-free estimate that needs nothing).`, { cause: error });
  }
  return gptTokenCounter();
}
