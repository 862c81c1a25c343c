import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { createAnthropic } from "@ai-sdk/anthropic";
import { MockLanguageModelV3 } from "ai/test";
import { expectTypeOf } from "expect-type";
import { type AISdkCallOptions, AISdkChatGenerator, type AISdkLanguageModel } from "toolwright/ai-sdk";

describe("AISdkLanguageModel types", () => {
  it("accepts any LanguageModelV3, and what toolwright sends is a LanguageModelV3CallOptions", () => {
    expectTypeOf<LanguageModelV3>().toMatchTypeOf<AISdkLanguageModel>();
    expectTypeOf<MockLanguageModelV3>().toMatchTypeOf<AISdkLanguageModel>();
    expectTypeOf<AISdkCallOptions>().toMatchTypeOf<LanguageModelV3CallOptions>();
  });

  it("takes a provider's model as it is, and refuses what is not a model", () => {
    const anthropic = createAnthropic({ apiKey: "test-key" });
    const generator = new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5") });

    expect(generator.provider).toBe("anthropic");
    // @ts-expect-error a model id string is not a model
    expect(() => new AISdkChatGenerator({ model: "anthropic/claude-sonnet-4-5" })).toThrow("AISdkChatGenerator needs a LanguageModel object");
    // @ts-expect-error generationKwargs are the specification's call settings
    expect(() => new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5"), generationKwargs: { max_tokens: 10 } })).toThrow("the AI SDK calls it maxOutputTokens");
  });
});
