import fc from "fast-check";
import { Agent, type AgentSnapshot, type ChatGenerator, type AgentStreamEvent, ChatMessage, DeferredConfirmationStrategy, type RunUsage, Tool, type ToolCall } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { ScriptedChatGenerator } from "toolwright/testing";
import { jsonReply, MockOpenAIServer, sseReply } from "../helpers/mockOpenAIServer";
import { notesAgent, notesInput, notesScript } from "../helpers/notesAgent";

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });
const usageMeta = (promptTokens: unknown, completionTokens: unknown, totalTokens?: unknown) => ({ usage: { promptTokens, completionTokens, ...(totalTokens !== undefined && { totalTokens }) } });

const weather = new Tool({
  name: "get_weather",
  description: "Current weather of a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  function: (args) => `Sunny in ${String(args.city)}`,
});

describe("run usage", () => {
  describe("from the OpenAI generator over HTTP", () => {
    const server = new MockOpenAIServer();
    beforeAll(() => server.start());
    afterAll(() => server.close());
    beforeEach(() => server.reset());

    const replies = [
      { toolCalls: [{ id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' }, { id: "call_b", name: "get_weather", arguments: "{}" }], usage: { promptTokens: 30, completionTokens: 18 } },
      { text: "Sunny.", usage: { promptTokens: 70, completionTokens: 9 } },
    ];
    const expected: RunUsage = { inputTokens: 100, outputTokens: 27, totalTokens: 127, modelCalls: 2, toolCalls: 2, failedToolCalls: 1, toolCallsByName: { get_weather: 2 } };

    it("sums the tokens of every completion, and counts the calls (one failed validation)", async () => {
      server.enqueue(...replies.map(jsonReply));
      const agent = new Agent({ chatGenerator: new OpenAIChatGenerator({ model: "test-model", apiKey: "test", baseURL: server.baseURL, maxRetries: 0 }), tools: [weather] });

      const result = await agent.run({ messages: [ChatMessage.fromUser("Weather?")] });

      expect(result.usage).toEqual(expected);
    });

    it("gives the same totals when streaming, on the stream's final event", async () => {
      server.enqueue(...replies.map((reply) => sseReply(reply)));
      const agent = new Agent({ chatGenerator: new OpenAIChatGenerator({ model: "test-model", apiKey: "test", baseURL: server.baseURL, maxRetries: 0 }), tools: [weather] });

      const events: AgentStreamEvent<unknown>[] = [];
      for await (const event of agent.stream({ messages: [ChatMessage.fromUser("Weather?")] })) events.push(event);

      const last = events.at(-1) as { type: "result"; result: { usage: RunUsage } };
      expect(last.type).toBe("result");
      expect(last.result.usage).toEqual(expected);
    });
  });

  it("adds up a response's meta.usage, else its replies', using a reported total and input + output otherwise", async () => {
    let calls = 0;
    const chatGenerator: ChatGenerator = {
      async run() {
        calls += 1;
        return calls === 1
          ? { replies: [ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "get_weather", { city: "Oslo" })], meta: usageMeta(1, 1, 1) })], meta: { usage: { promptTokens: 10, completionTokens: 5, totalTokens: 40 } } }
          : { replies: [ChatMessage.fromAssistant("a", { meta: usageMeta(3, 4) }), ChatMessage.fromAssistant("b", { meta: usageMeta(1, 2) })] };
      },
    };
    const agent = new Agent({
      chatGenerator,
      tools: [weather],
    });

    const result = await agent.run({ messages: [ChatMessage.fromUser("Weather?")] });

    expect(result.usage).toEqual({ inputTokens: 14, outputTokens: 11, totalTokens: 50, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { get_weather: 1 } });
  });

  it("counts unknown tools, invalid arguments, throws and rejections as failed tool calls", async () => {
    const failing = new Tool({
      name: "explode",
      description: "Fails.",
      parameters: { type: "object", properties: {} },
      function: () => {
        throw new Error("kaboom");
      },
    });
    const script = [
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("a", "nope", {}), call("b", "get_weather", { town: 1 }), call("c", "explode", {}), call("d", "get_weather", { city: "Rome" })] }),
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("e", "get_weather", { city: "Bern" })] }),
      ChatMessage.fromAssistant("done"),
    ];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator(script), tools: [weather, failing], confirmationStrategies: { get_weather: { decide: (request) => (request.arguments.city === "Bern" ? { action: "reject" } : { action: "confirm" }) } } });

    const result = await agent.run({ messages: [ChatMessage.fromUser("go")] });

    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 3, toolCalls: 5, failedToolCalls: 4, toolCallsByName: { explode: 1, get_weather: 3, nope: 1 } });
  });

  it("carries the totals through a pause and a resume from JSON, and through checkpoints", async () => {
    const script = [
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "search", { query: "lamps" })], meta: usageMeta(10, 1) }),
      ChatMessage.fromAssistant(undefined, { toolCalls: [call("c2", "add_note", { text: "lamps found" })], meta: usageMeta(20, 2) }),
      ChatMessage.fromAssistant("Noted.", { meta: usageMeta(30, 3) }),
    ];
    const checkpoints: AgentSnapshot[] = [];
    const { agent } = notesAgent({ script, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });

    const paused = await agent.run({ ...notesInput(), onCheckpoint: (snapshot) => void checkpoints.push(snapshot) });
    const resumed = await agent.run({ snapshot: JSON.parse(JSON.stringify(paused.snapshot)) as AgentSnapshot, decisions: { c2: { action: "confirm" } } });

    expect(paused.usage).toEqual({ inputTokens: 30, outputTokens: 3, totalTokens: 33, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { search: 1 } });
    expect(paused.snapshot!.usage).toEqual(paused.usage);
    expect(checkpoints.map((c) => c.usage!.modelCalls)).toEqual([1, 1, 2]);
    expect(resumed.usage).toEqual({ inputTokens: 60, outputTokens: 6, totalTokens: 66, modelCalls: 3, toolCalls: 2, failedToolCalls: 0, toolCallsByName: { add_note: 1, search: 1 } });
  });

  it("reads a snapshot without usage (made before usage existed) as zeros", async () => {
    const { agent } = notesAgent();
    const stopped = await agent.run({ ...notesInput(), breakpoint: { at: "chat_generator", visit: 2 } }).catch((error: { snapshot: AgentSnapshot }) => error.snapshot);
    const { usage: _left, ...old } = stopped;

    const result = await notesAgent({ script: notesScript.slice(2) }).agent.run({ snapshot: old as AgentSnapshot });

    expect(result.stepCount).toBe(4);
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 2, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { search: 1 } });
  });

  it("ignores counts a generator reports that are not whole numbers ≥ 0, and stops at MAX_SAFE_INTEGER, so any run stays resumable", async () => {
    const hostileCount = fc.oneof(
      fc.integer({ min: 0, max: 1_000 }),
      fc.constantFrom(-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 1e300, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, "12", null, {}, [], true),
    );
    const hostileUsage = fc.oneof(fc.constant(undefined), fc.constant("lots"), fc.record({ promptTokens: hostileCount, completionTokens: hostileCount, totalTokens: hostileCount }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(fc.array(hostileUsage, { minLength: 3, maxLength: 3 }), fc.array(hostileUsage, { minLength: 3, maxLength: 3 }), async (responseUsages, replyUsages) => {
        const script = responseUsages.map((usage, i) => {
          const reply = i < 2 ? ChatMessage.fromAssistant(undefined, { toolCalls: [call(`c${i}`, "get_weather", { city: "Oslo" })], meta: { usage: replyUsages[i] } }) : ChatMessage.fromAssistant("done", { meta: { usage: replyUsages[i] } });
          return { replies: [reply], meta: { usage } };
        });
        let n = 0;
        const chatGenerator = { run: async () => script[n++]! } as never;
        const agent = new Agent({ chatGenerator, tools: [weather] });
        const stopped = (await agent.run({ messages: [ChatMessage.fromUser("go")], breakpoint: { at: "chat_generator", visit: 2 } }).catch((error: { snapshot: AgentSnapshot }) => error.snapshot)) as AgentSnapshot;
        const result = await agent.run({ snapshot: JSON.parse(JSON.stringify(stopped)) as AgentSnapshot });
        const { toolCallsByName, ...totals } = result.usage;
        expect(toolCallsByName).toEqual({ get_weather: 2 });
        for (const value of Object.values(totals)) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        expect(result.usage.modelCalls).toBe(3);
        expect(result.usage.toolCalls).toBe(2);
        expect(result.usage.totalTokens).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 150 },
    );
  });
});
