import { cachedCounter, ChatMessage, countTokens, estimateTokenCounter } from "toolwright";

describe("estimateTokenCounter", () => {
  it("counts ceil(chars / 4 × 1.25) + 4 per message, tool calls and results included", () => {
    expect(estimateTokenCounter.count(ChatMessage.fromUser("x".repeat(400)))).toBe(129);
    // "search" + '{"q":"cats"}' + "c1" = 20 characters.
    const call = { id: "c1", toolName: "search", arguments: { q: "cats" } };
    expect(estimateTokenCounter.count(ChatMessage.fromAssistant(undefined, { toolCalls: [call] }))).toBe(11);
    // "found 3" + "c1" = 9 characters.
    expect(estimateTokenCounter.count(ChatMessage.fromTool("found 3", call))).toBe(7);
  });
});

describe("cachedCounter", () => {
  it("counts each message once", () => {
    let counted = 0;
    const counter = cachedCounter(() => ++counted);
    const message = ChatMessage.fromUser("hi");

    expect(countTokens([message, message, ChatMessage.fromUser("ho")], counter)).toBe(1 + 1 + 2);
    expect(counted).toBe(2);
  });
});
