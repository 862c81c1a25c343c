// openTelemetry() against the OpenTelemetry SDK: a BasicTracerProvider with the in-memory exporter,
// passed as `tracerProvider` (no globals, but for the tests of the global default and of the active
// context, which clean up after themselves). The RunTrace is driven with events built by hand
// (test/otel/traceEvents.ts); the Agent's own span trees are tested with the Agent.
import * as fs from "node:fs";
import * as path from "node:path";
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ChatMessage, ConfigurationError } from "toolwright";
import { openTelemetry, type OpenTelemetryOptions } from "toolwright/otel";
import type { AgentTracing, TraceContext } from "../../src/observe/agentTracing";
import { tracerVersion } from "../../src/otel/openTelemetry";
import { observedMessageJSON } from "../../src/observe/observedMessage";
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_STREAM,
  ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from "@opentelemetry/semantic-conventions/incubating";
import { hrTime, modelEnd, modelStart, type Reads, runEnd, runStart, T0, toolEnd, toolStart } from "./traceEvents";

function record(options: Omit<OpenTelemetryOptions, "tracerProvider"> = {}, sampler?: AlwaysOffSampler) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)], ...(sampler ? { sampler } : {}) });
  const tracing = openTelemetry({ ...options, tracerProvider: provider });
  const spans = () => exporter.getFinishedSpans();
  const span = (name: string): ReadableSpan => {
    const found = spans().filter((s) => s.name === name);
    if (found.length !== 1) throw new Error(`expected one span '${name}', got ${found.length}: ${spans().map((s) => s.name).join(", ")}`);
    return found[0];
  };
  return { tracing, provider, spans, span };
}

// A run with one model call and one tool call, ended; returns the reads of content getters.
function oneStep(tracing: AgentTracing, continues?: TraceContext): Reads {
  const reads: Reads = [];
  const run = tracing.startRun(runStart(), continues);
  const system = observedMessageJSON(ChatMessage.fromSystem("Be brief."));
  const model = run.startModelCall(modelStart(reads, {}, { messages: [system, observedMessageJSON(ChatMessage.fromUser("hi"))], tools: [{ name: "search", description: "Search.", parameters: { type: "object" }, strict: false }] }));
  model.end(modelEnd(reads, {}, [observedMessageJSON(ChatMessage.fromAssistant("hello"))]));
  const tool = run.startToolCall(toolStart(reads, {}, { q: "x" }));
  tool.end(toolEnd(reads, {}, "found"));
  run.end(runEnd());
  return reads;
}

const validParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

describe("openTelemetry", () => {
  it("names its tracer toolwright, with the package's version", () => {
    const { tracing, span } = record();
    tracing.startRun(runStart(), undefined).end(runEnd());

    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { version: string };
    expect(tracerVersion).toBe(manifest.version);
    expect(span("invoke_agent support").instrumentationScope).toEqual({ name: "toolwright", version: manifest.version });
  });

  it("records a run as an invoke_agent span with its model and tool calls as children", () => {
    const { tracing, span, spans } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart({ runId: "run-7", resumed: true, stepCount: 3, usage: { inputTokens: 28, outputTokens: 4, totalTokens: 32, modelCalls: 3, toolCalls: 1, failedToolCalls: 1, toolCallsByName: { lookup: 1 } } }), undefined);
    const model = run.startModelCall(modelStart(reads, { step: 4, runId: "run-7", stream: true, serverAddress: "127.0.0.1", serverPort: 8080 }));
    model.end(
      modelEnd(reads, {
        step: 4,
        responseModel: "gpt-test-2025",
        responseId: "resp_1",
        usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
        finishReasons: ["tool_calls"],
        timeToFirstChunk: 250,
      }),
    );
    const tool = run.startToolCall(toolStart(reads, { step: 4, runId: "run-7", toolDescription: "Search the documents." }));
    tool.end(toolEnd(reads, { step: 4 }));
    run.end(runEnd({ exitReason: "text", stepCount: 4, usage: { inputTokens: 40, outputTokens: 9, totalTokens: 50, modelCalls: 4, toolCalls: 2, failedToolCalls: 1, toolCallsByName: { lookup: 2 } } }));

    expect(spans().map((s) => s.name)).toEqual(["chat gpt-test", "execute_tool search", "invoke_agent support"]);
    const runSpan = span("invoke_agent support");
    expect(runSpan.kind).toBe(SpanKind.INTERNAL);
    expect(runSpan.parentSpanContext).toBeUndefined();
    expect(runSpan.links).toEqual([]);
    expect(runSpan.startTime).toEqual(hrTime(T0));
    expect(runSpan.endTime).toEqual(hrTime(T0 + 10));
    expect(runSpan.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(runSpan.events).toEqual([]);
    expect(runSpan.attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": "openai",
      "gen_ai.agent.name": "support",
      "gen_ai.request.model": "gpt-test",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-7",
      "toolwright.run.id": "run-7",
      "toolwright.run.resumed": true,
      "toolwright.run.start_step": 3,
      "toolwright.exit_reason": "text",
      "toolwright.step_count": 4,
      "toolwright.usage.input_tokens": 40,
      "toolwright.usage.output_tokens": 9,
      "toolwright.usage.total_tokens": 50,
      "toolwright.usage.model_calls": 4,
      "toolwright.usage.tool_calls": 2,
      "toolwright.usage.failed_tool_calls": 1,
      // This part's tokens: the totals less what the run started with.
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 12,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 5,
    });

    const chat = span("chat gpt-test");
    expect(chat.kind).toBe(SpanKind.CLIENT);
    expect(chat.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
    expect(chat.spanContext().traceId).toBe(runSpan.spanContext().traceId);
    expect(chat.startTime).toEqual(hrTime(T0 + 1));
    expect(chat.endTime).toEqual(hrTime(T0 + 2));
    expect(chat.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(chat.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-test",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-7",
      [ATTR_GEN_AI_REQUEST_STREAM]: true,
      [ATTR_SERVER_ADDRESS]: "127.0.0.1",
      [ATTR_SERVER_PORT]: 8080,
      [ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK]: 0.25,
      "toolwright.step": 4,
      "gen_ai.response.model": "gpt-test-2025",
      "gen_ai.response.id": "resp_1",
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 5,
    });

    const toolSpan = span("execute_tool search");
    expect(toolSpan.kind).toBe(SpanKind.INTERNAL);
    expect(toolSpan.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
    expect(toolSpan.startTime).toEqual(hrTime(T0 + 3));
    expect(toolSpan.endTime).toEqual(hrTime(T0 + 4));
    expect(toolSpan.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(toolSpan.events).toEqual([]);
    expect(toolSpan.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "search",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.type": "function",
      [ATTR_GEN_AI_TOOL_DESCRIPTION]: "Search the documents.",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-7",
      "toolwright.step": 4,
      "toolwright.tool.ran": true,
    });
    expect(reads).toEqual([]);
  });

  it("leaves out the names an event does not have, and names an unnamed provider _OTHER", () => {
    const { tracing, span } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart({ agentName: undefined, model: undefined, provider: undefined }), undefined);
    run.startModelCall(modelStart(reads, { model: undefined, provider: undefined })).end(modelEnd(reads, { model: undefined, provider: undefined }));
    run.startToolCall(toolStart(reads, { toolCallId: undefined })).end(toolEnd(reads, { toolCallId: undefined, ran: false }));
    run.end(runEnd({ exitReason: undefined }));

    expect(span("invoke_agent").attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      [ATTR_GEN_AI_PROVIDER_NAME]: "_OTHER",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-1",
      "toolwright.run.id": "run-1",
      "toolwright.run.resumed": false,
      "toolwright.run.start_step": 0,
      "toolwright.step_count": 1,
      "toolwright.usage.input_tokens": 0,
      "toolwright.usage.output_tokens": 0,
      "toolwright.usage.total_tokens": 0,
      "toolwright.usage.model_calls": 0,
      "toolwright.usage.tool_calls": 0,
      "toolwright.usage.failed_tool_calls": 0,
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 0,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 0,
    });
    expect(span("chat").attributes).toEqual({ "gen_ai.operation.name": "chat", [ATTR_GEN_AI_PROVIDER_NAME]: "_OTHER", [ATTR_GEN_AI_CONVERSATION_ID]: "run-1", [ATTR_GEN_AI_REQUEST_STREAM]: false, "toolwright.step": 1 });
    expect(span("execute_tool search").attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "search",
      "gen_ai.tool.type": "function",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-1",
      "toolwright.step": 1,
      "toolwright.tool.ran": false,
    });
  });

  it("records the generation options of the conventions when their values have the right type", () => {
    const { tracing, span } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    const kwargs = Object.assign(Object.create({ temperature: 0.9, seed: 1 }) as Record<string, unknown>, {
      top_p: 0.5,
      top_k: 40,
      max_tokens: 100,
      max_completion_tokens: 200,
      frequency_penalty: 0.1,
      presence_penalty: -0.2,
      stop: ["END", "STOP"],
      response_format: { type: "json_object" },
    });
    run.startModelCall(modelStart(reads, { generationKwargs: kwargs })).end(modelEnd(reads));
    run.startModelCall(modelStart(reads, { step: 2, model: "m2", generationKwargs: { temperature: "hot", top_p: Number.NaN, max_tokens: 1.5, seed: "7", stop: ["END", 1] } })).end(modelEnd(reads, { step: 2 }));
    run.startModelCall(modelStart(reads, { step: 3, model: "m3", generationKwargs: { temperature: 0, max_tokens: 64, seed: 7, stop: "\n" } })).end(modelEnd(reads, { step: 3 }));

    expect(span("chat gpt-test").attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-test",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-1",
      [ATTR_GEN_AI_REQUEST_STREAM]: false,
      "toolwright.step": 1,
      "gen_ai.request.top_p": 0.5,
      "gen_ai.request.top_k": 40,
      "gen_ai.request.max_tokens": 200,
      "gen_ai.request.frequency_penalty": 0.1,
      "gen_ai.request.presence_penalty": -0.2,
      "gen_ai.request.stop_sequences": ["END", "STOP"],
    });
    expect(span("chat m2").attributes).toEqual({ "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "m2", [ATTR_GEN_AI_CONVERSATION_ID]: "run-1", [ATTR_GEN_AI_REQUEST_STREAM]: false, "toolwright.step": 2 });
    expect(span("chat m3").attributes).toMatchObject({ "gen_ai.request.temperature": 0, "gen_ai.request.max_tokens": 64, "gen_ai.request.seed": 7, "gen_ai.request.stop_sequences": ["\n"] });
  });

  it("marks a failed model call with its error type, message and an exception event at its end", () => {
    const { tracing, span } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    run.startModelCall(modelStart(reads)).end(modelEnd(reads, { error: { type: "ChatGeneratorError", message: "The provider answered 500." } }));

    const chat = span("chat gpt-test");
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: "The provider answered 500." });
    expect(chat.attributes["error.type"]).toBe("ChatGeneratorError");
    expect(chat.events).toEqual([
      expect.objectContaining({ name: "exception", time: hrTime(T0 + 2), attributes: { "exception.type": "ChatGeneratorError", "exception.message": "The provider answered 500." } }),
    ]);
  });

  it("marks a failed tool call with its error type and message, without an exception event", () => {
    const { tracing, span } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    run.startToolCall(toolStart(reads)).end(toolEnd(reads, { ran: false, error: { type: "rejected", message: "The call was rejected." } }));

    const toolSpan = span("execute_tool search");
    expect(toolSpan.status).toEqual({ code: SpanStatusCode.ERROR, message: "The call was rejected." });
    expect(toolSpan.attributes).toMatchObject({ "error.type": "rejected", "toolwright.tool.ran": false });
    expect(toolSpan.events).toEqual([]);
  });

  it("marks a failed run with its error and an exception event, and a paused one as no error", () => {
    const { tracing, span } = record();
    tracing.startRun(runStart({ agentName: "failing" }), undefined).end(runEnd({ agentName: "failing", exitReason: undefined, error: { type: "AbortError", message: "The run was aborted." } }));
    tracing.startRun(runStart({ agentName: "paused" }), undefined).end(runEnd({ agentName: "paused", exitReason: "confirmation_required" }));
    tracing.startRun(runStart({ agentName: "stopped" }), undefined).end(runEnd({ agentName: "stopped", exitReason: "breakpoint" }));

    const failed = span("invoke_agent failing");
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: "The run was aborted." });
    expect(failed.attributes["error.type"]).toBe("AbortError");
    expect(failed.attributes["toolwright.exit_reason"]).toBeUndefined();
    expect(failed.events).toEqual([expect.objectContaining({ name: "exception", time: hrTime(T0 + 10), attributes: { "exception.type": "AbortError", "exception.message": "The run was aborted." } })]);
    for (const name of ["invoke_agent paused", "invoke_agent stopped"]) {
      expect(span(name).status).toEqual({ code: SpanStatusCode.UNSET });
      expect(span(name).attributes["error.type"]).toBeUndefined();
      expect(span(name).events).toEqual([]);
    }
    expect(span("invoke_agent paused").attributes["toolwright.exit_reason"]).toBe("confirmation_required");
    expect(span("invoke_agent stopped").attributes["toolwright.exit_reason"]).toBe("breakpoint");
  });

  it("adds trace events to the run's span at their time", () => {
    const { tracing, span } = record();
    const run = tracing.startRun(runStart(), undefined);
    run.addEvent({ name: "toolwright.confirmation", time: T0 + 5, attributes: { "gen_ai.tool.name": "refund", "toolwright.tool.call_ids": ["a", "b"], approved: true, count: 2 } });
    run.end(runEnd());

    expect(span("invoke_agent support").events).toEqual([
      expect.objectContaining({ name: "toolwright.confirmation", time: hrTime(T0 + 5), attributes: { "gen_ai.tool.name": "refund", "toolwright.tool.call_ids": ["a", "b"], approved: true, count: 2 } }),
    ]);
  });

  it("makes tool spans children of the run even when started within a model call", () => {
    const { tracing, span } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    const model = run.startModelCall(modelStart(reads));
    model.within(() => run.startToolCall(toolStart(reads)).end(toolEnd(reads)));
    model.end(modelEnd(reads));
    run.end(runEnd());

    expect(span("execute_tool search").parentSpanContext?.spanId).toBe(span("invoke_agent support").spanContext().spanId);
  });
});

describe("openTelemetry trace context", () => {
  it("gives the run's span as a W3C traceparent", () => {
    const { tracing, span } = record();
    const run = tracing.startRun(runStart(), undefined);
    const traceContext = run.traceContext;
    run.end(runEnd());

    const { traceId, spanId } = span("invoke_agent support").spanContext();
    expect(traceContext).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });

  it("continues the trace of the run whose trace context it is given", () => {
    const { tracing, spans } = record();
    const first = tracing.startRun(runStart({ agentName: "first" }), undefined);
    const firstContext = first.traceContext;
    first.end(runEnd());
    const second = tracing.startRun(runStart({ agentName: "second", resumed: true }), firstContext);
    second.end(runEnd());

    const [firstSpan, secondSpan] = spans();
    expect(secondSpan.spanContext().traceId).toBe(firstSpan.spanContext().traceId);
    expect(secondSpan.parentSpanContext).toEqual(expect.objectContaining({ traceId: firstSpan.spanContext().traceId, spanId: firstSpan.spanContext().spanId, isRemote: true }));
    expect(secondSpan.links).toEqual([]);
    expect(second.traceContext?.traceparent).toBe(`00-${firstSpan.spanContext().traceId}-${secondSpan.spanContext().spanId}-01`);
  });

  it("carries the tracestate on, and keeps the parent when the tracestate does not parse", () => {
    const { tracing, spans } = record();
    const cases: unknown[] = ["rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", "%%% not a tracestate", "a".repeat(600), 42, ""];
    const contexts = cases.map((tracestate) => {
      const run = tracing.startRun(runStart(), { traceparent: validParent, tracestate } as TraceContext);
      run.end(runEnd());
      return run.traceContext;
    });

    expect(spans().map((s) => s.parentSpanContext?.spanId)).toEqual(Array(cases.length).fill("b7ad6b7169203331"));
    expect(contexts[0]).toEqual({ traceparent: expect.stringMatching(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-01$/), tracestate: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE" });
    for (const traceContext of contexts.slice(1)) expect(Object.keys(traceContext ?? {})).toEqual(["traceparent"]);
  });

  it("ignores a trace context that is not a valid version-00 traceparent", () => {
    const { tracing, spans } = record();
    const hostile: unknown[] = [
      { traceparent: "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      { traceparent: "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      { traceparent: "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01" },
      { traceparent: "00-00000000000000000000000000000000-b7ad6b7169203331-01" },
      { traceparent: "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01" },
      { traceparent: `${validParent}-00` },
      { traceparent: validParent + "x".repeat(100_000) },
      { traceparent: ` ${validParent}` },
      { traceparent: "00-0af7651916cd43dd8448eb211c80319-b7ad6b7169203331-01" },
      { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1" },
      { traceparent: "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01" },
      { traceparent: 42 },
      { tracestate: "rojo=1" },
      {},
      null,
      validParent,
      [validParent],
    ];
    for (const continues of hostile) tracing.startRun(runStart(), continues as TraceContext).end(runEnd());

    expect(spans()).toHaveLength(hostile.length);
    for (const span of spans()) {
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).not.toBe("0af7651916cd43dd8448eb211c80319c");
    }
  });

  it("keeps the parent's sampled flag off when it was off", () => {
    const { tracing } = record();
    const run = tracing.startRun(runStart(), { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00" });
    run.end(runEnd());

    expect(run.traceContext?.traceparent).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-00$/);
  });
});

describe("openTelemetry with an active context", () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterEach(() => {
    context.disable();
  });

  it("starts a fresh run under the active span", () => {
    const { tracing, provider, span } = record();
    const request = provider.getTracer("app").startSpan("POST /chat");
    context.with(trace.setSpan(ROOT_CONTEXT, request), () => tracing.startRun(runStart(), undefined).end(runEnd()));
    request.end();

    expect(span("invoke_agent support").parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(span("invoke_agent support").links).toEqual([]);
  });

  it("links the active span to a continued run, whose parent is the run it continues", () => {
    const { tracing, provider, span } = record();
    const request = provider.getTracer("app").startSpan("POST /resume");
    context.with(trace.setSpan(ROOT_CONTEXT, request), () => tracing.startRun(runStart(), { traceparent: validParent }).end(runEnd()));
    request.end();

    const runSpan = span("invoke_agent support");
    expect(runSpan.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
    expect(runSpan.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(runSpan.links).toEqual([expect.objectContaining({ context: request.spanContext() })]);
  });

  it("makes the run's and the calls' spans active within them, across awaits", async () => {
    const { tracing, provider, span } = record();
    const app = provider.getTracer("app");
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    await run.within(async () => {
      await Promise.resolve();
      app.startSpan("in run").end();
    });
    const model = run.startModelCall(modelStart(reads));
    await model.within(async () => {
      await Promise.resolve();
      app.startSpan("in model call").end();
    });
    model.end(modelEnd(reads));
    const tool = run.startToolCall(toolStart(reads));
    const returned = tool.within(() => {
      app.startSpan("in tool call").end();
      return 42;
    });
    tool.end(toolEnd(reads));
    run.end(runEnd());

    expect(returned).toBe(42);
    expect(span("in run").parentSpanContext?.spanId).toBe(span("invoke_agent support").spanContext().spanId);
    expect(span("in model call").parentSpanContext?.spanId).toBe(span("chat gpt-test").spanContext().spanId);
    expect(span("in tool call").parentSpanContext?.spanId).toBe(span("execute_tool search").spanContext().spanId);
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it("nests calls under the run's span, not under the span active when they start", () => {
    const { tracing, provider, span } = record();
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    const other = provider.getTracer("app").startSpan("unrelated");
    context.with(trace.setSpan(ROOT_CONTEXT, other), () => {
      run.startModelCall(modelStart(reads)).end(modelEnd(reads));
      run.startToolCall(toolStart(reads)).end(toolEnd(reads));
    });
    other.end();
    run.end(runEnd());

    const runSpanId = span("invoke_agent support").spanContext().spanId;
    expect(span("chat gpt-test").parentSpanContext?.spanId).toBe(runSpanId);
    expect(span("execute_tool search").parentSpanContext?.spanId).toBe(runSpanId);
  });
});

describe("openTelemetry content", () => {
  it("records no content and reads none by default", () => {
    const { tracing, spans } = record();
    const reads = oneStep(tracing);

    expect(tracing.captureContent).toBe(false);
    expect(reads).toEqual([]);
    const names = spans().flatMap((s) => Object.keys(s.attributes));
    for (const name of ["gen_ai.input.messages", "gen_ai.system_instructions", "gen_ai.tool.definitions", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"]) {
      expect(names).not.toContain(name);
    }
  });

  it("records messages, instructions, tool definitions, arguments and results in the conventions' shapes", () => {
    const { tracing, span } = record({ captureContent: true });
    const reads: Reads = [];
    const call = { id: "call_1", toolName: "search", arguments: { q: "refund" } };
    const messages = [
      observedMessageJSON(ChatMessage.fromSystem("Be brief.")),
      observedMessageJSON(ChatMessage.fromUser("Find my refund.", { name: "ana" })),
      observedMessageJSON(ChatMessage.fromAssistant("Searching.", { toolCalls: [call, { toolName: "lookup", arguments: "{not json" }] })),
      observedMessageJSON(ChatMessage.fromTool('{"status":"sent"}', call)),
      observedMessageJSON(ChatMessage.fromSystem("Answer in English.")),
    ];
    const tools = [{ name: "search", description: "Search tickets.", parameters: { type: "object", properties: { q: { type: "string" } } }, strict: false }];
    const replies = [
      observedMessageJSON(ChatMessage.fromAssistant("It was sent.", { meta: { finishReason: "stop" } })),
      observedMessageJSON(ChatMessage.fromAssistant(undefined, { toolCalls: [call], meta: { finishReason: "tool_calls" } })),
      observedMessageJSON(ChatMessage.fromAssistant("And?")),
    ];
    const run = tracing.startRun(runStart(), undefined);
    run.startModelCall(modelStart(reads, {}, { messages, tools })).end(modelEnd(reads, { finishReasons: ["stop", "tool_calls"] }, replies));
    // The arguments are recorded at the call's end, from the end event (redacted of what is hidden then).
    run.startToolCall(toolStart(reads, {}, { q: "refund", limit: 2 })).end(toolEnd(reads, {}, '{"status":"sent"}', { q: "refund", limit: 2 }));
    run.end(runEnd());

    expect(tracing.captureContent).toBe(true);
    expect(reads).toEqual(["messages", "tools", "replies", "arguments", "result"]);
    const chat = span("chat gpt-test").attributes;
    expect(JSON.parse(chat["gen_ai.system_instructions"] as string)).toEqual([
      { type: "text", content: "Be brief." },
      { type: "text", content: "Answer in English." },
    ]);
    expect(JSON.parse(chat["gen_ai.input.messages"] as string)).toEqual([
      { role: "user", name: "ana", parts: [{ type: "text", content: "Find my refund." }] },
      {
        role: "assistant",
        parts: [
          { type: "text", content: "Searching." },
          { type: "tool_call", id: "call_1", name: "search", arguments: { q: "refund" } },
          { type: "tool_call", id: null, name: "lookup", arguments: "{not json" },
        ],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: '{"status":"sent"}' }] },
    ]);
    expect(JSON.parse(chat["gen_ai.tool.definitions"] as string)).toEqual([
      { type: "function", name: "search", description: "Search tickets.", parameters: { type: "object", properties: { q: { type: "string" } } } },
    ]);
    expect(JSON.parse(chat["gen_ai.output.messages"] as string)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "It was sent." }], finish_reason: "stop" },
      { role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "search", arguments: { q: "refund" } }], finish_reason: "tool_calls" },
      // Neither the reply nor the response names a reason: a text reply stopped.
      { role: "assistant", parts: [{ type: "text", content: "And?" }], finish_reason: "stop" },
    ]);
    const toolSpan = span("execute_tool search").attributes;
    expect(toolSpan["gen_ai.tool.call.arguments"]).toBe('{"q":"refund","limit":2}');
    expect(toolSpan["gen_ai.tool.call.result"]).toBe('{"status":"sent"}');
  });

  it("gives replies the response's finish reason when none has its own", () => {
    const { tracing, span } = record({ captureContent: true });
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    run.startModelCall(modelStart(reads)).end(modelEnd(reads, { finishReasons: ["length"] }, [observedMessageJSON(ChatMessage.fromAssistant("Once upon"))]));
    run.end(runEnd());

    expect(span("chat gpt-test").attributes["gen_ai.output.messages"]).toBe('[{"role":"assistant","parts":[{"type":"text","content":"Once upon"}],"finish_reason":"length"}]');
  });

  it("leaves out empty instructions and tool definitions, and the replies of a failed call", () => {
    const { tracing, span } = record({ captureContent: true });
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    run.startModelCall(modelStart(reads, {}, { messages: [observedMessageJSON(ChatMessage.fromUser("hi"))] })).end(modelEnd(reads, { error: { type: "ChatGeneratorError", message: "Timed out." } }));
    run.end(runEnd());

    const chat = span("chat gpt-test").attributes;
    expect(chat["gen_ai.input.messages"]).toBe('[{"role":"user","parts":[{"type":"text","content":"hi"}]}]');
    expect(chat["gen_ai.system_instructions"]).toBeUndefined();
    expect(chat["gen_ai.tool.definitions"]).toBeUndefined();
    expect(chat["gen_ai.output.messages"]).toBeUndefined();
    expect(reads).toEqual(["messages", "tools"]);
  });

  it("reads no content for spans that do not record (a sampler's no)", () => {
    const { tracing, spans } = record({ captureContent: true }, new AlwaysOffSampler());
    const reads = oneStep(tracing);

    expect(reads).toEqual([]);
    expect(spans()).toEqual([]);
    expect(tracing.startRun(runStart(), undefined).recording).toBe(false);
    expect(record().tracing.startRun(runStart(), undefined).recording).toBe(true);
  });
});

describe("openTelemetry without a provider", () => {
  afterEach(() => {
    trace.disable();
  });

  it("makes no-op spans, gives no trace context and reads no content", () => {
    const tracing = openTelemetry({ captureContent: true });
    const reads: Reads = [];
    const run = tracing.startRun(runStart(), undefined);
    const model = run.startModelCall(modelStart(reads, { generationKwargs: { temperature: 1 } }));

    expect(run.traceContext).toBeUndefined();
    expect(run.recording).toBe(false);
    expect(model.within(() => "ran")).toBe("ran");
    model.end(modelEnd(reads));
    run.startToolCall(toolStart(reads)).end(toolEnd(reads));
    run.addEvent({ name: "toolwright.pause", time: T0 + 5, attributes: {} });
    run.end(runEnd({ error: { type: "AbortError", message: "aborted" } }));
    expect(reads).toEqual([]);
  });

  it("passes a continued run's trace context on unchanged", () => {
    const run = openTelemetry().startRun(runStart(), { traceparent: validParent, tracestate: "rojo=1" });
    run.end(runEnd());

    expect(run.traceContext).toEqual({ traceparent: validParent, tracestate: "rojo=1" });
  });

  it("uses the global provider once the app registers one, even when made before", () => {
    const tracing = openTelemetry();
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    tracing.startRun(runStart(), undefined).end(runEnd());

    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["invoke_agent support"]);
  });
});

describe("openTelemetry options", () => {
  const cases: Array<[string, unknown, string]> = [
    ["a non-object", "yes", `openTelemetry needs an options object such as { captureContent: true }, got string "yes".`],
    ["null", null, "openTelemetry needs an options object such as { captureContent: true }, got null."],
    ["an array", [], "openTelemetry needs an options object such as { captureContent: true }, got an array."],
    ["an unknown option", { capture: true }, "openTelemetry has unknown option 'capture'; the options are tracerProvider and captureContent."],
    [
      "a captureContent that is not a boolean",
      { captureContent: "true" },
      `openTelemetry has a captureContent that is not a boolean, got string "true"; pass true to record content, or false (the default).`,
    ],
    [
      "a tracerProvider without getTracer",
      { tracerProvider: { getTracers: () => undefined } },
      "openTelemetry has a tracerProvider without a getTracer method, got an object; pass a TracerProvider (the SDK's NodeTracerProvider, say), or leave it out to use the global one.",
    ],
    [
      "a tracerProvider that is null",
      { tracerProvider: null },
      "openTelemetry has a tracerProvider without a getTracer method, got null; pass a TracerProvider (the SDK's NodeTracerProvider, say), or leave it out to use the global one.",
    ],
  ];

  it.each(cases)("rejects %s", (_, options, message) => {
    const make = () => openTelemetry(options as OpenTelemetryOptions);

    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(expect.objectContaining({ subject: "openTelemetry", message }));
  });

  it("accepts options left undefined", () => {
    expect(openTelemetry({ tracerProvider: undefined, captureContent: undefined }).captureContent).toBe(false);
  });

  it("says what to install when the OpenTelemetry API is missing", () => {
    let error: unknown;
    jest.isolateModules(() => {
      jest.doMock("@opentelemetry/api", () => {
        throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: "MODULE_NOT_FOUND" });
      });
      const isolated = require("../../src/otel") as typeof import("../../src/otel");
      try {
        isolated.openTelemetry();
      } catch (caught) {
        error = caught;
      }
    });
    jest.dontMock("@opentelemetry/api");

    expect(error).toMatchObject({
      name: "ConfigurationError",
      subject: "openTelemetry",
      message: "openTelemetry needs the OpenTelemetry API: npm install @opentelemetry/api (version 1.x), an optional peer dependency of toolwright.",
      cause: expect.objectContaining({ code: "MODULE_NOT_FOUND" }),
    });
  });
});
