import { ChatMessage, DefinitionError, estimateTokenCounter } from "toolwright";
import { tokenCounterFromDefinition } from "../../src/definition/tokenCounterDefinition";

// The package exports only ESM types for this entry; the runtime is required as gptTokenCounter requires it.
const { encode } = require("gpt-tokenizer/encoding/o200k_base") as { encode(text: string): number[] };

const path = ["compaction", "tokenCounter"];

describe("tokenCounterFromDefinition", () => {
  it("gives the estimate for estimate, and a gpt-tokenizer counter for gpt", () => {
    const message = ChatMessage.fromUser("hello ".repeat(400));

    expect(tokenCounterFromDefinition("estimate", path)).toBe(estimateTokenCounter);
    // gpt-tokenizer's own count of the text (o200k_base), plus 4 tokens of framing.
    expect(tokenCounterFromDefinition("gpt", path).count(message)).toBe(encode(message.text!).length + 4);
    expect(encode(message.text!).length).toBeLessThan(estimateTokenCounter.count(message) - 300);
  });

  it("refuses gpt at its path when gpt-tokenizer cannot be found, saying how to install it or what to use instead", () => {
    const missing = (id: string): string => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: "MODULE_NOT_FOUND" });
    };

    const thrown = (() => {
      try {
        return tokenCounterFromDefinition("gpt", path, missing);
      } catch (error) {
        return error;
      }
    })();

    expect(thrown).toBeInstanceOf(DefinitionError);
    expect((thrown as DefinitionError).path).toEqual(path);
    expect((thrown as DefinitionError).message).toBe(
      'compaction.tokenCounter: is "gpt", which counts with the gpt-tokenizer package, and it is not installed; run npm i gpt-tokenizer, or use "estimate" (a tokenizer-free estimate that needs nothing).',
    );
    expect(((thrown as DefinitionError).cause as Error).message).toBe("Cannot find module 'gpt-tokenizer/encoding/o200k_base'");
  });
});
