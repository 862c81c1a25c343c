import { Agent, ChatMessage, ConfigurationError, MiddlewareError, summarize, summaryStateKey } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const long = (n: number) => [ChatMessage.fromUser(`question ${n} ${"q".repeat(400)}`), ChatMessage.fromAssistant(`answer ${n} ${"a".repeat(400)}`)];
const conversation = [...long(1), ...long(2), ...long(3), ChatMessage.fromUser("last question")];

describe("summarize", () => {
  it("sends a summary of the older messages and the newest ones, and keeps the summary in state", async () => {
    const summarizer = new ScriptedChatGenerator([ChatMessage.fromAssistant("The user asked three questions.")]);
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
    const agent = new Agent({
      chatGenerator: model,
      systemPrompt: "Be brief.",
      stateSchema: { conversation_summary: summaryStateKey() },
      middleware: [summarize({ chatGenerator: summarizer, maxTokens: 500, keepLast: 2 })],
    });

    const result = await agent.run({ messages: conversation });

    expect(model.requests[0]!.messages).toEqual([
      ChatMessage.fromSystem("Be brief."),
      ChatMessage.fromUser("[Summary of the earlier conversation]\nThe user asked three questions."),
      conversation[5],
      conversation[6],
    ]);
    expect(summarizer.requests[0]!.messages[1]!.text).toBe(conversation.slice(0, 5).map((m) => `${m.role}: ${m.text}`).join("\n\n"));
    expect(summarizer.requests[0]!.tools).toEqual([]);
    expect(result.conversation_summary).toEqual({ covered: 5, text: "The user asked three questions." });
    expect(result.messages.slice(1, 8)).toEqual(conversation);
  });

  it("counts the summarizer's tokens in the run's usage, and reports its call as a model call by the middleware", async () => {
    const summarizer = new ScriptedChatGenerator([ChatMessage.fromAssistant("The user asked three questions.", { meta: { usage: { promptTokens: 300, completionTokens: 20 } } })]);
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok", { meta: { usage: { promptTokens: 150, completionTokens: 5 } } })]);
    const events: Array<{ kind: string; step: number; by: string | undefined; model: string | undefined; usage?: unknown }> = [];
    const agent = new Agent({
      chatGenerator: model,
      stateSchema: { conversation_summary: summaryStateKey() },
      middleware: [summarize({ chatGenerator: summarizer, maxTokens: 500, keepLast: 2 })],
      hooks: {
        onModelStart: ({ step, by, model }) => void events.push({ kind: "start", step, by, model }),
        onModelEnd: ({ step, by, model, usage }) => void events.push({ kind: "end", step, by, model, usage }),
      },
    });

    const result = await agent.run({ messages: conversation });

    expect(result.usage).toMatchObject({ inputTokens: 450, outputTokens: 25, totalTokens: 475, modelCalls: 2 });
    expect(result.stepCount).toBe(1);
    expect(events).toEqual([
      { kind: "start", step: 1, by: "summarize", model: "scripted" },
      { kind: "end", step: 1, by: "summarize", model: "scripted", usage: { inputTokens: 300, outputTokens: 20 } },
      { kind: "start", step: 1, by: undefined, model: "scripted" },
      { kind: "end", step: 1, by: undefined, model: "scripted", usage: { inputTokens: 150, outputTokens: 5 } },
    ]);
  });

  it("fails the run naming the middleware when the summary's state key is not declared", async () => {
    const summarizer = new ScriptedChatGenerator([ChatMessage.fromAssistant("summary")]);
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), middleware: [summarize({ chatGenerator: summarizer, maxTokens: 300, keepLast: 1 })] });

    const error = await agent.run({ messages: conversation }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toBe(
      "Middleware 'summarize' threw in beforeModel: summarize keeps its summary in state key 'conversation_summary', which the Agent's stateSchema lacks; add { conversation_summary: summaryStateKey() } to stateSchema, or name a declared key with stateKey.",
    );
  });

  it("fails the run when the summarizing model answers without text", async () => {
    const summarizer = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "x", toolName: "t", arguments: {} }] })]);
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([]),
      stateSchema: { conversation_summary: summaryStateKey() },
      middleware: [summarize({ chatGenerator: summarizer, maxTokens: 300, keepLast: 1 })],
    });

    const error = await agent.run({ messages: conversation }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error).message).toBe(
      "Middleware 'summarize' threw in beforeModel: The summarizing chat generator of middleware 'summarize' answered without text (got a ChatMessage); it must reply with a message holding the summary.",
    );
  });

  it("throws a ConfigurationError without a chat generator", () => {
    expect(() => summarize({ chatGenerator: undefined as never, maxTokens: 10 })).toThrow(
      new ConfigurationError("summarize", "summarize needs chatGenerator as a ChatGenerator (an object with a run method), got undefined."),
    );
  });
});
