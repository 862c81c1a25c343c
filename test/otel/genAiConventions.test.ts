// The GenAI semantic conventions as @opentelemetry/semantic-conventions names them, for Agent runs
// against the OpenAI SDK over HTTP on 127.0.0.1 (streamed and not), traced into the SDK's in-memory
// exporter. Attribute names and well-known values come from the package's constants.
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import * as stable from "@opentelemetry/semantic-conventions";
import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_OUTPUT_MESSAGES,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  GEN_AI_PROVIDER_NAME_VALUE_OPENAI,
} from "@opentelemetry/semantic-conventions/incubating";
import { Agent, type ChatGenerator, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { openTelemetry } from "toolwright/otel";
import { jsonReply, MockOpenAIServer, sseReply } from "../helpers/mockOpenAIServer";

function recorder() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracing: openTelemetry({ tracerProvider: provider, captureContent: true }), spans: () => exporter.getFinishedSpans() };
}

const search = new Tool({
  name: "search",
  description: "Search the help center.",
  parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  function: (args) => {
    if (args.q === "boom") throw new Error("the index is down");
    return `found ${String(args.q)}`;
  },
});

// Every string the two packages export as an attribute name (ATTR_*).
const conventionNames = new Set(
  [...Object.entries(stable), ...Object.entries(incubating)].filter(([key, value]) => key.startsWith("ATTR_") && typeof value === "string").map(([, value]) => value as string),
);

const spansNamed = (spans: readonly ReadableSpan[], prefix: string) => spans.filter((s) => s.name.startsWith(prefix));

describe("GenAI semantic conventions", () => {
  const server = new MockOpenAIServer();
  beforeAll(() => server.start());
  afterAll(() => server.close());

  function openaiAgent(tracing: ReturnType<typeof recorder>["tracing"]) {
    const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini", baseURL: server.baseURL, apiKey: "sk-test", maxRetries: 0 });
    return new Agent({ name: "helpdesk", chatGenerator, tools: [search], tracing });
  }

  const script = () => [
    { toolCalls: [{ id: "call_ok", name: "search", arguments: '{"q":"refunds"}' }, { id: "call_boom", name: "search", arguments: '{"q":"boom"}' }], usage: { promptTokens: 30, completionTokens: 7 } },
    { text: "Refunds take five days.", usage: { promptTokens: 60, completionTokens: 9 } },
  ];

  it("names every attribute outside toolwright.* with a name the conventions define", async () => {
    const { tracing, spans } = recorder();
    server.enqueue(...script().map((reply) => sseReply(reply)));
    await openaiAgent(tracing).run({ messages: [ChatMessage.fromUser("Refunds?")], streamingCallback: () => {}, runId: "conv-1" });

    const names = new Set<string>();
    for (const span of spans()) {
      for (const key of Object.keys(span.attributes)) names.add(key);
      for (const event of span.events) for (const key of Object.keys(event.attributes ?? {})) names.add(key);
    }
    const foreign = [...names].filter((name) => !name.startsWith("toolwright.") && !conventionNames.has(name));
    expect(foreign).toEqual([]);
    // The run reached every kind of span and attribute this test vouches for.
    for (const name of [ATTR_GEN_AI_REQUEST_STREAM, ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, ATTR_SERVER_ADDRESS, ATTR_GEN_AI_TOOL_DESCRIPTION, ATTR_GEN_AI_CONVERSATION_ID, ATTR_ERROR_TYPE]) expect(names).toContain(name);
  });

  it("marks a streamed call with gen_ai.request.stream, its time to first chunk and the server it called", async () => {
    const { tracing, spans } = recorder();
    server.enqueue(...script().map((reply) => sseReply(reply)));
    const result = await openaiAgent(tracing).run({ messages: [ChatMessage.fromUser("Refunds?")], streamingCallback: () => {}, runId: "conv-1" });
    expect(result.exitReason).toBe("text");

    const chats = spansNamed(spans(), "chat ");
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.attributes[ATTR_GEN_AI_PROVIDER_NAME]).toBe(GEN_AI_PROVIDER_NAME_VALUE_OPENAI);
      expect(chat.attributes[ATTR_GEN_AI_REQUEST_STREAM]).toBe(true);
      expect(chat.attributes[ATTR_SERVER_ADDRESS]).toBe("127.0.0.1");
      expect(chat.attributes[ATTR_SERVER_PORT]).toBe(Number(new URL(server.baseURL).port));
      expect(chat.attributes[ATTR_GEN_AI_CONVERSATION_ID]).toBe("conv-1");
      // Seconds from the call's start, within the call.
      const ttfc = chat.attributes[ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK] as number;
      expect(Number.isFinite(ttfc) && ttfc >= 0).toBe(true);
      expect(ttfc).toBeLessThanOrEqual(chat.duration[0] + chat.duration[1] / 1e9 + 1e-6);
    }
  });

  it("marks a call that did not stream as such, without a time to first chunk", async () => {
    const { tracing, spans } = recorder();
    server.enqueue(...script().map((reply) => jsonReply(reply)));
    await openaiAgent(tracing).run({ messages: [ChatMessage.fromUser("Refunds?")] });

    for (const chat of spansNamed(spans(), "chat ")) {
      expect(chat.attributes[ATTR_GEN_AI_REQUEST_STREAM]).toBe(false);
      expect(ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK in chat.attributes).toBe(false);
    }
  });

  it("gives every output message a finish_reason", async () => {
    const { tracing, spans } = recorder();
    server.enqueue(...script().map((reply) => jsonReply(reply)));
    await openaiAgent(tracing).run({ messages: [ChatMessage.fromUser("Refunds?")] });

    const reasons = spansNamed(spans(), "chat ").flatMap((chat) => (JSON.parse(chat.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES] as string) as Array<{ finish_reason?: string }>).map((m) => m.finish_reason));
    expect(reasons).toEqual(["tool_calls", "stop"]);
  });

  it("gives a tool span the tool's description, and a failed call error.type instead of gen_ai.tool.call.result", async () => {
    const { tracing, spans } = recorder();
    server.enqueue(...script().map((reply) => jsonReply(reply)));
    await openaiAgent(tracing).run({ messages: [ChatMessage.fromUser("Refunds?")] });

    const [ok, boom] = spansNamed(spans(), "execute_tool ");
    expect(ok!.attributes[ATTR_GEN_AI_TOOL_DESCRIPTION]).toBe("Search the help center.");
    expect(ok!.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]).toBe("found refunds");
    expect(ok!.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(boom!.attributes[ATTR_GEN_AI_TOOL_DESCRIPTION]).toBe("Search the help center.");
    expect(boom!.attributes[ATTR_ERROR_TYPE]).toBe("ToolInvocationError");
    expect(boom!.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBe('{"q":"boom"}');
    expect(ATTR_GEN_AI_TOOL_CALL_RESULT in boom!.attributes).toBe(false);
  });

  it("puts each part's tokens on its agent span under gen_ai.usage.*, so the parts add up to the run", async () => {
    const { tracing, spans } = recorder();
    const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini", baseURL: server.baseURL, apiKey: "sk-test", maxRetries: 0 });
    const agent = new Agent({ chatGenerator, tools: [search], tracing, confirmationStrategies: { search: new DeferredConfirmationStrategy() } });
    server.enqueue(jsonReply({ toolCalls: [{ id: "call_1", name: "search", arguments: '{"q":"refunds"}' }], usage: { promptTokens: 30, completionTokens: 7 } }));
    const paused = await agent.run({ messages: [ChatMessage.fromUser("Refunds?")] });
    server.enqueue(jsonReply({ text: "Five days.", usage: { promptTokens: 60, completionTokens: 9 } }));
    const resumed = await agent.run({ snapshot: paused.snapshot!, decisions: { call_1: { action: "confirm" } } });

    const parts = spansNamed(spans(), "invoke_agent");
    expect(parts.map((s) => [s.attributes[ATTR_GEN_AI_USAGE_INPUT_TOKENS], s.attributes[ATTR_GEN_AI_USAGE_OUTPUT_TOKENS], s.attributes["toolwright.usage.input_tokens"]])).toEqual([
      [30, 7, 30],
      [60, 9, 90],
    ]);
    expect(resumed.usage.inputTokens).toBe(90);
  });

  it("names a generator that names no provider _OTHER", async () => {
    const { tracing, spans } = recorder();
    const chatGenerator: ChatGenerator = { run: async () => ({ replies: [ChatMessage.fromAssistant("Hi.")] }) };
    await new Agent({ chatGenerator, tracing }).run({ messages: [ChatMessage.fromUser("Hello")] });

    expect(spans().map((s) => [s.name, s.attributes[ATTR_GEN_AI_PROVIDER_NAME]])).toEqual([
      ["chat", "_OTHER"],
      ["invoke_agent", "_OTHER"],
    ]);
    // Neither a server nor a finish reason was named: the text reply stopped.
    const chat = spans()[0]!;
    expect(ATTR_SERVER_ADDRESS in chat.attributes).toBe(false);
    expect(JSON.parse(chat.attributes[ATTR_GEN_AI_OUTPUT_MESSAGES] as string)).toEqual([{ role: "assistant", parts: [{ type: "text", content: "Hi." }], finish_reason: "stop" }]);
  });
});
