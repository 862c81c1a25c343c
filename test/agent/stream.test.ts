import {
  AbortError,
  Agent,
  type AgentStreamEvent,
  type ChatGenerator,
  clientEvent,
  type ChatGeneratorRequest,
  ChatMessage,
  DeferredConfirmationStrategy,
  type JsonSchema,
  type StreamingChunk,
  Tool,
} from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

const queryParameters: JsonSchema = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };

function searchTool(fn: (args: Record<string, unknown>, context: { signal: AbortSignal }) => unknown = ({ query }) => `results for ${String(query)}`): Tool {
  return new Tool({ name: "search", description: "Search documents.", parameters: queryParameters, function: fn });
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function untilAborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener("abort", () => resolve(signal.reason), { once: true });
  });
}

const searchCall = { id: "c1", toolName: "search", arguments: { query: "lamps" } };

function twoStepModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([ChatMessage.fromAssistant("Searching now.", { toolCalls: [searchCall] }), ChatMessage.fromAssistant("Found two lamps.")]);
}

const expectedChunks: StreamingChunk[] = [
  { type: "text", delta: "Searching " },
  { type: "text", delta: "now." },
  { type: "toolCallDelta", index: 0, id: "c1", toolName: "search", argumentsDelta: '{"query":"lamps"}' },
  { type: "finish", finishReason: "tool_calls" },
  {
    type: "toolResult",
    index: 0,
    toolCall: searchCall,
    result: { result: "results for lamps", origin: searchCall, error: false },
  },
  { type: "finish", finishReason: "tool_call_results" },
  { type: "text", delta: "Found " },
  { type: "text", delta: "two " },
  { type: "text", delta: "lamps." },
  { type: "finish", finishReason: "stop" },
];

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe("Agent.stream", () => {
  it("yields the text deltas, tool-call deltas, tool results and finish chunks in order, ending with the result event", async () => {
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool()] });

    const events = await collect(agent.stream({ messages: [ChatMessage.fromUser("Find lamps")] }));

    expect(events.slice(0, -1)).toEqual(expectedChunks);
    const last = events.at(-1) as Extract<AgentStreamEvent<unknown>, { type: "result" }>;
    expect(last.type).toBe("result");
    const result = (last as { result: Awaited<ReturnType<typeof agent.run>> }).result;
    expect(result.exitReason).toBe("text");
    expect(result.stepCount).toBe(2);
    expect(result.lastMessage.text).toBe("Found two lamps.");
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("sends the same chunks to the Agent's streamingCallback and the stream, in the same order", async () => {
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool()], streamingCallback: (chunk) => void chunks.push(chunk) });

    const events = await collect(agent.stream({ messages: [ChatMessage.fromUser("Find lamps")] }));

    expect(chunks).toEqual(expectedChunks);
    expect(events.slice(0, -1)).toEqual(chunks);
  });

  it("sends the chunks to the run's streamingCallback instead of the Agent's", async () => {
    const agentChunks: StreamingChunk[] = [];
    const runChunks: StreamingChunk[] = [];
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool()], streamingCallback: (chunk) => void agentChunks.push(chunk) });

    await collect(agent.stream({ messages: [ChatMessage.fromUser("Find lamps")], streamingCallback: (chunk) => void runChunks.push(chunk) }));

    expect(agentChunks).toEqual([]);
    expect(runChunks).toEqual(expectedChunks);
  });

  it("yields the result of a run that needs a confirmation, with the pending calls", async () => {
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool()], confirmationStrategies: { search: new DeferredConfirmationStrategy() } });

    const events = await collect(agent.stream({ messages: [ChatMessage.fromUser("Find lamps")] }));

    expect(events.map((e) => e.type)).toEqual(["text", "text", "toolCallDelta", "finish", "result"]);
    const result = (events.at(-1) as { result: Awaited<ReturnType<typeof agent.run>> }).result;
    expect(result.exitReason).toBe("confirmation_required");
    expect(result.pendingConfirmations).toEqual([{ toolCallId: "c1", toolName: "search", arguments: { query: "lamps" } }]);
  });

  it("aborts the run when the consumer leaves the loop during a model call, and the model sees the aborted signal", async () => {
    const seen = deferred<{ aborted: boolean; reason: unknown }>();
    const model: ChatGenerator = {
      async run(request: ChatGeneratorRequest) {
        await request.streamingCallback?.({ type: "text", delta: "Thinking" });
        const reason = await untilAborted(request.signal!);
        seen.resolve({ aborted: request.signal!.aborted, reason });
        throw reason;
      },
    };
    const agent = new Agent({ chatGenerator: model });

    const received: string[] = [];
    for await (const event of agent.stream({ messages: [ChatMessage.fromUser("hi")] })) {
      received.push(event.type);
      break;
    }

    const { aborted, reason } = await seen.promise;
    expect(received).toEqual(["text"]);
    expect(aborted).toBe(true);
    expect(reason).toBeInstanceOf(AbortError);
    expect((reason as Error).message).toBe("The agent stream was closed by its consumer.");
  });

  it("aborts the run when the consumer leaves the loop while a tool runs, and the tool sees the aborted signal", async () => {
    const started = deferred();
    const seen = deferred<boolean>();
    const tool = searchTool(async (_args, { signal }) => {
      started.resolve();
      await untilAborted(signal);
      seen.resolve(signal.aborted);
      return "never used";
    });
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [searchCall] }), ChatMessage.fromAssistant("unused")]);
    const agent = new Agent({ chatGenerator: model, tools: [tool] });

    for await (const event of agent.stream({ messages: [ChatMessage.fromUser("hi")] })) {
      if (event.type === "finish") {
        await started.promise;
        break;
      }
    }

    expect(await seen.promise).toBe(true);
    expect(model.requests).toHaveLength(1);
  });

  it("aborts the run when the caller's signal aborts, and the iteration throws an AbortError", async () => {
    const controller = new AbortController();
    const model: ChatGenerator = {
      async run(request: ChatGeneratorRequest) {
        await request.streamingCallback?.({ type: "text", delta: "Thinking" });
        throw await untilAborted(request.signal!);
      },
    };
    const agent = new Agent({ chatGenerator: model });
    const received: string[] = [];

    const iteration = (async () => {
      for await (const event of agent.stream({ messages: [ChatMessage.fromUser("hi")], signal: controller.signal })) {
        received.push(event.type);
        controller.abort();
      }
    })();

    await expect(iteration).rejects.toMatchObject({ name: "AbortError", message: "The agent run was aborted." });
    expect(received).toEqual(["text"]);
  });

  it("yields the chunks before the failure, then throws the run's error", async () => {
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("Searching.", { toolCalls: [searchCall] })]);
    const agent = new Agent({ chatGenerator: model, tools: [searchTool()] });
    const received: string[] = [];

    const iteration = (async () => {
      for await (const event of agent.stream({ messages: [ChatMessage.fromUser("hi")] })) received.push(event.type);
    })();

    await expect(iteration).rejects.toMatchObject({
      message: "ScriptedChatGenerator received call 2, but its script has 1 entry; add an entry for every model call the run makes.",
    });
    expect(received).toEqual(["text", "toolCallDelta", "finish", "toolResult", "finish"]);
  });

  it("throws a configuration error of the run from the first step of the iteration", async () => {
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool()] });

    const iteration = collect(agent.stream({ messages: [ChatMessage.fromUser("hi")], breakpoint: { at: "tool", toolName: "nope" } }));

    await expect(iteration).rejects.toMatchObject({
      name: "ConfigurationError",
      message: "Agent.run has a breakpoint on tool 'nope', which is not one of the run's tools: search.",
    });
  });
});

describe("streamingCallback", () => {
  it("receives the chunks of agent.run in the order they happen", async () => {
    const chunks: StreamingChunk[] = [];
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool()] });

    await agent.run({ messages: [ChatMessage.fromUser("Find lamps")], streamingCallback: (chunk) => void chunks.push(chunk) });

    expect(chunks).toEqual(expectedChunks);
  });

  it("is awaited: the run waits for an async callback before the next chunk", async () => {
    const log: string[] = [];
    const agent = new Agent({ chatGenerator: twoStepModel(), tools: [searchTool(({ query }) => (log.push("tool ran"), `results for ${String(query)}`))] });

    await agent.run({
      messages: [ChatMessage.fromUser("Find lamps")],
      streamingCallback: async (chunk) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        log.push(chunk.type);
      },
    });

    expect(log).toEqual(["text", "text", "toolCallDelta", "finish", "tool ran", "toolResult", "finish", "text", "text", "text", "finish"]);
  });
});

describe("clientEvent", () => {
  it("passes chunks as they are and only the picked part of the result", () => {
    const chunk = { type: "text", delta: "Hi" } as const;
    const result = { customer_id: "c-secret", lastMessage: { text: "Done." } };

    expect(clientEvent(chunk, () => "unused")).toBe(chunk);
    expect(clientEvent({ type: "result", result }, (r) => ({ answer: r.lastMessage.text }))).toEqual({ type: "result", result: { answer: "Done." } });
  });
});
