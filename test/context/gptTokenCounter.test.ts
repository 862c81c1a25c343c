import { ChatMessage, ConfigurationError, estimateTokenCounter, gptTokenCounter } from "toolwright";
// The package's subpath exports need node16 resolution for their types; its CommonJS build is what the counter loads.
const { encode } = require("gpt-tokenizer/encoding/o200k_base") as { encode(text: string): number[] };

describe("gptTokenCounter", () => {
  it("counts a message as gpt-tokenizer encodes its text, plus 4 tokens of framing", () => {
    const text = "Refund order A-100, please: the lamp arrived broken. 退款";
    const counter = gptTokenCounter();

    expect(counter.count(ChatMessage.fromUser(text))).toBe(encode(text).length + 4);
  });

  it("counts tool calls by name and JSON arguments, and tool results by their text", () => {
    const call = { id: "c1", toolName: "lookup_order", arguments: { orderId: "A-100" } };
    const counter = gptTokenCounter({ encoding: "cl100k_base" });

    expect(counter.count(ChatMessage.fromAssistant(undefined, { toolCalls: [call] }))).toBeGreaterThan(4);
    expect(counter.count(ChatMessage.fromTool('{"orderId":"A-100","paid":49}', call))).toBeGreaterThan(4);
  });

  it("counts fewer tokens than the estimate for English text (the estimate errs on the safe side)", () => {
    const message = ChatMessage.fromUser("The quick brown fox jumps over the lazy dog. ".repeat(40));

    expect(gptTokenCounter().count(message)).toBeLessThan(estimateTokenCounter.count(message));
  });

  it("refuses an encoding it does not know", () => {
    expect(() => gptTokenCounter({ encoding: "p50k" as never })).toThrow(ConfigurationError);
    expect(() => gptTokenCounter({ encoding: "p50k" as never })).toThrow(`gptTokenCounter has encoding 'p50k'; use "o200k_base" (GPT-4o and later) or "cl100k_base" (GPT-4, GPT-3.5).`);
  });
});
