import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ChatMessage, ConfigurationError, ImageContent, slidingWindow, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { checkToolPairing } from "../helpers/checkToolPairing";

const call = (id: string): ToolCall => ({ id, toolName: "search", arguments: { q: id } });
const transcript = (messages: readonly ChatMessage[]) => messages.map((m) => `${m.role}:${m.text ?? m.toolCalls.map((c) => c.id).join(",") ?? ""}${m.toolCallResult ? `#${m.toolCallResult.origin.id}` : ""}`);

function agentWith(middleware: ReturnType<typeof slidingWindow>, replies: ChatMessage[] = [ChatMessage.fromAssistant("ok")]) {
  const model = new ScriptedChatGenerator(replies);
  return { model, agent: new Agent({ chatGenerator: model, systemPrompt: "Be brief.", middleware: [middleware] }) };
}

// A conversation whose second turn made two calls, one with a long result.
const conversation = [
  ChatMessage.fromUser("first question"),
  ChatMessage.fromAssistant(undefined, { toolCalls: [call("a"), call("b")] }),
  ChatMessage.fromTool("x".repeat(4_000), call("a")),
  ChatMessage.fromTool("short", call("b")),
  ChatMessage.fromAssistant("answer"),
  ChatMessage.fromUser("second question"),
];

describe("slidingWindow", () => {
  it("sends the conversation as it is while it fits", async () => {
    const { agent, model } = agentWith(slidingWindow({ maxTokens: 10_000 }));

    await agent.run({ messages: conversation });

    expect(model.requests[0]!.messages).toEqual([ChatMessage.fromSystem("Be brief."), ...conversation]);
  });

  it("drops an assistant message's calls and all their results together, and keeps the system prompt", async () => {
    const { agent, model } = agentWith(slidingWindow({ maxTokens: 1_000 }));

    const result = await agent.run({ messages: conversation });

    const sent = model.requests[0]!.messages;
    expect(transcript(sent)).toEqual(["system:Be brief.", "assistant:answer", "user:second question"]);
    expect(checkToolPairing(sent)).toEqual([]);
    expect(result.messages).toHaveLength(conversation.length + 2);
  });

  it("keeps a call with its results when they fit, never a result without its call", async () => {
    const { agent, model } = agentWith(slidingWindow({ maxTokens: 1_300 }));

    await agent.run({ messages: conversation });

    expect(transcript(model.requests[0]!.messages)).toEqual(["system:Be brief.", "assistant:a,b", "tool:#a", "tool:#b", "assistant:answer", "user:second question"]);
  });

  it("counts by the provider's usage when the last call reported it, even when the counter says the messages fit", async () => {
    const withUsage = ChatMessage.fromAssistant(undefined, { toolCalls: [call("c")], meta: { usage: { promptTokens: 5_000, completionTokens: 10 } } });
    const model = new ScriptedChatGenerator([withUsage, ChatMessage.fromAssistant("done")]);
    const search = { name: "search", description: "Search.", parameters: { type: "object" as const, properties: { q: { type: "string" } } }, function: () => "found" };
    const agent = new Agent({ chatGenerator: model, tools: [new Tool(search)], middleware: [slidingWindow({ maxTokens: 1_000, counter: { count: () => 1 } })] });

    await agent.run({ messages: [ChatMessage.fromUser("one"), ChatMessage.fromAssistant("two"), ChatMessage.fromUser("three")] });

    expect(transcript(model.requests[0]!.messages)).toEqual(["user:one", "assistant:two", "user:three"]);
    // 5,000 reported tokens for the first call's messages: over 1,000, so the window cuts; by the counter (1 a message) all fit.
    expect(transcript(model.requests[1]!.messages)).toEqual(["user:one", "assistant:two", "user:three", "assistant:c", "tool:#c"]);
  });

  it("stops the run with a snapshot when even the newest message does not fit", async () => {
    // 400 characters: ceil(400 / 4 × 1.25) + 4 = 129 tokens; the system prompt 7.
    const { agent } = agentWith(slidingWindow({ maxTokens: 50 }));

    const result = await agent.run({ messages: [ChatMessage.fromUser("y".repeat(400))] });

    expect(result.exitReason).toBe("stopped");
    expect(result.stopped).toEqual({
      exitReason: "stopped",
      middleware: "sliding-window",
      hook: "beforeModel",
      reason: "slidingWindow: the newest message (with its tool results) and the system messages take 136 tokens, over maxTokens 50; raise maxTokens, or prune tool results before the window.",
      details: { maxTokens: 50, systemTokens: 7, newestTokens: 129 },
    });
    expect(result.snapshot).toBeDefined();
  });

  it("throws a ConfigurationError for a maxTokens that is not a whole number ≥ 1", () => {
    expect(() => slidingWindow({ maxTokens: 0 })).toThrow(new ConfigurationError("slidingWindow", "slidingWindow needs maxTokens as a whole number ≥ 1, got 0."));
    expect(() => slidingWindow({ maxTokens: "8k" as unknown as number })).toThrow("slidingWindow needs maxTokens as a whole number ≥ 1, got string \"8k\".");
  });

  it("throws a ConfigurationError for a counter without a count method", () => {
    expect(() => slidingWindow({ maxTokens: 10, counter: {} as never })).toThrow("slidingWindow needs counter as a TokenCounter (an object with a count(message) method), got an object.");
  });

  it("counts a tool result's image and drops the call with its media result together", async () => {
    const chart = ImageContent.fromBytes(readFileSync(join(__dirname, "../fixtures/media/tree-787x941.png")));
    const withImage = [
      ChatMessage.fromUser("first question"),
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("a")] }),
      ChatMessage.fromTool(["Chart:", chart], call("a")),
      ChatMessage.fromAssistant("answer"),
      ChatMessage.fromUser("second question"),
    ];
    // The text is a few dozen tokens; the image alone is 988 (estimateTokenCounter): it does not fit in 500.
    const { agent, model } = agentWith(slidingWindow({ maxTokens: 500 }));

    await agent.run({ messages: withImage });

    const sent = model.requests[0]!.messages;
    expect(transcript(sent)).toEqual(["system:Be brief.", "assistant:answer", "user:second question"]);
    expect(checkToolPairing(sent)).toEqual([]);
  });
});
