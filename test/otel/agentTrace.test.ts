// Agent runs traced with openTelemetry() into the OpenTelemetry SDK's in-memory exporter: the span
// tree, names, attributes, events and redaction for a run with parallel tool calls, a failing tool,
// a pause and a resume (here, from JSON, with another Agent as another process would).
import { context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ScriptedChatGenerator } from "toolwright/testing";
import { Agent, type AgentSnapshot, type AgentTracing, ChatGeneratorError, ChatMessage, DeferredConfirmationStrategy, HookError, SnapshotError, type ToolCall } from "toolwright";
import { openTelemetry } from "toolwright/otel";
import { ATTR_GEN_AI_CONVERSATION_ID, ATTR_GEN_AI_REQUEST_STREAM, ATTR_GEN_AI_USAGE_INPUT_TOKENS, ATTR_GEN_AI_USAGE_OUTPUT_TOKENS } from "@opentelemetry/semantic-conventions/incubating";
import { notesAgent, notesInput, rejectionOf } from "../helpers/notesAgent";

const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });
const secret = "cust-9931";

function recorder(captureContent = false) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracing = openTelemetry({ tracerProvider: provider, captureContent });
  const spans = () => exporter.getFinishedSpans();
  return { tracing, provider, spans };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The spans as an indented tree of names, children in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const lines: string[] = [];
  const byStart = [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of byStart) {
      const p = parentOf(span);
      if ((parent === undefined && (p === undefined || !ids.has(p))) || (parent !== undefined && p === parent)) {
        lines.push(`${"  ".repeat(depth)}${span.name}`);
        walk(span.spanContext().spanId, depth + 1);
      }
    }
  };
  walk(undefined, 0);
  return lines;
}

// Step 1: search (customer_id injected; echoes it), add_note, and a tool that throws, in parallel;
// step 2: the answer.
function parallelScript() {
  return [
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [call("c1", "search", { query: `lamps for ${secret}` }), call("c2", "add_note", { text: "lamps" }), call("c3", "search", { query: "boom" })],
      meta: { usage: { promptTokens: 100, completionTokens: 20 }, finishReason: "tool_calls" },
    }),
    ChatMessage.fromAssistant("Lamps are in stock.", { meta: { usage: { promptTokens: 200, completionTokens: 10 }, finishReason: "stop" } }),
  ];
}

function searchImpl(args: Record<string, unknown>): string {
  if (args.query === "boom") throw new Error(`index of ${String(args.customerId)} is down`);
  return `results for ${String(args.query)} (customer ${String(args.customerId)})`;
}

describe("Agent runs traced with openTelemetry()", () => {
  it("make an invoke_agent span with chat and execute_tool children, GenAI attributes, and usage at its end", async () => {
    const { tracing, spans } = recorder();
    const { agent } = notesAgent({ script: parallelScript(), searchImpl, tracing, name: "notes" });

    const result = await agent.run({ ...notesInput(), customer_id: secret, runId: "run-1" });

    expect(tree(spans())).toEqual(["invoke_agent notes", "  chat scripted", "  execute_tool search", "  execute_tool add_note", "  execute_tool search", "  chat scripted"]);
    const all = spans();
    const run = all.find((s) => s.name === "invoke_agent notes")!;
    expect(new Set(all.map((s) => s.spanContext().traceId)).size).toBe(1);
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "notes",
      "gen_ai.provider.name": "toolwright.scripted",
      "gen_ai.request.model": "scripted",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-1",
      "toolwright.run.id": "run-1",
      "toolwright.run.resumed": false,
      "toolwright.run.start_step": 0,
      "toolwright.exit_reason": "text",
      "toolwright.step_count": 2,
      "toolwright.usage.input_tokens": 300,
      "toolwright.usage.output_tokens": 30,
      "toolwright.usage.total_tokens": 330,
      "toolwright.usage.model_calls": 2,
      "toolwright.usage.tool_calls": 3,
      "toolwright.usage.failed_tool_calls": 1,
      [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: 300,
      [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: 30,
    });
    expect(run.status.code).toBe(SpanStatusCode.UNSET);
    const [chat1, chat2] = all.filter((s) => s.name === "chat scripted");
    expect(chat1!.kind).toBe(SpanKind.CLIENT);
    expect(chat1!.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "toolwright.scripted",
      "gen_ai.request.model": "scripted",
      [ATTR_GEN_AI_CONVERSATION_ID]: "run-1",
      [ATTR_GEN_AI_REQUEST_STREAM]: false,
      "toolwright.step": 1,
      "gen_ai.response.model": "scripted",
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "gen_ai.usage.input_tokens": 100,
      "gen_ai.usage.output_tokens": 20,
    });
    expect(chat2!.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    expect(result.usage.inputTokens).toBe(300);
    const tools = all.filter((s) => s.name.startsWith("execute_tool"));
    expect(tools.map((s) => [s.attributes["gen_ai.tool.call.id"], s.attributes["toolwright.step"], s.attributes["toolwright.tool.ran"], s.status.code, s.attributes["error.type"]])).toEqual([
      ["c1", 1, true, SpanStatusCode.UNSET, undefined],
      ["c2", 1, true, SpanStatusCode.UNSET, undefined],
      ["c3", 1, true, SpanStatusCode.ERROR, "ToolInvocationError"],
    ]);
    expect(tools[2]!.status.message).toBe("Tool 'search' failed: index of [customer_id] is down.");
    for (const span of tools) expect(parentOf(span)).toBe(run.spanContext().spanId);
    // The parallel calls overlap: each ran within its own span, none inside another's.
    expect(tools.every((s) => s.attributes["gen_ai.tool.name"] === s.name.slice("execute_tool ".length))).toBe(true);
  });

  it("record no content by default, and redacted content with captureContent", async () => {
    for (const captureContent of [false, true]) {
      const { tracing, spans } = recorder(captureContent);
      const { agent } = notesAgent({ script: parallelScript(), searchImpl, tracing });

      await agent.run({ ...notesInput(), customer_id: secret });

      const everything = JSON.stringify(spans().map((s) => ({ attributes: s.attributes, events: s.events, status: s.status })));
      expect(everything).not.toContain(secret);
      const contentKeys = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions", "gen_ai.tool.definitions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"];
      const present = contentKeys.filter((key) => spans().some((s) => key in s.attributes));
      if (!captureContent) {
        expect(present).toEqual([]);
        continue;
      }
      expect(present).toEqual(contentKeys);
      const search = spans().find((s) => s.attributes["gen_ai.tool.call.id"] === "c1")!;
      expect(JSON.parse(search.attributes["gen_ai.tool.call.arguments"] as string)).toEqual({ query: "lamps for [customer_id]" });
      expect(search.attributes["gen_ai.tool.call.result"]).toBe("results for lamps for [customer_id] (customer [customer_id])");
      const secondChat = spans().filter((s) => s.name === "chat scripted")[1]!;
      const input = JSON.parse(secondChat.attributes["gen_ai.input.messages"] as string) as Array<{ role: string; parts: Array<{ type: string }> }>;
      expect(input.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool"]);
      expect(JSON.parse(secondChat.attributes["gen_ai.system_instructions"] as string)).toEqual([{ type: "text", content: "You keep notes." }]);
      expect(JSON.parse(secondChat.attributes["gen_ai.output.messages"] as string)).toEqual([{ role: "assistant", parts: [{ type: "text", content: "Lamps are in stock." }], finish_reason: "stop" }]);
    }
  });

  it("continue the paused run's trace when it resumes from JSON on another Agent, with the pause and the decision as events", async () => {
    const first = recorder();
    const { agent } = notesAgent({ tracing: first.tracing, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });
    const paused = await agent.run(notesInput());
    if (paused.exitReason !== "confirmation_required") throw new Error("expected a pause");
    const pausedRun = first.spans().find((s) => s.name === "invoke_agent")!;
    const stored = JSON.parse(JSON.stringify(paused.snapshot)) as AgentSnapshot;

    // Another process: another provider, another Agent, the snapshot as JSON.
    const second = recorder();
    const { agent: resumer } = notesAgent({ script: notesScriptAfterPause(), tracing: second.tracing, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });
    const result = await resumer.run({ snapshot: stored, decisions: { c2: { action: "confirm" } } });

    expect(result.exitReason).toBe("text");
    expect(pausedRun.attributes["toolwright.exit_reason"]).toBe("confirmation_required");
    expect(pausedRun.status.code).toBe(SpanStatusCode.UNSET);
    expect(pausedRun.events.map((e) => [e.name, e.attributes])).toEqual([["toolwright.run.paused", { "toolwright.pending.tool_call_ids": ["c2"], "toolwright.pending.tool_names": ["add_note"] }]]);
    const { traceId, spanId, traceFlags } = pausedRun.spanContext();
    expect(stored.trace).toEqual({ traceparent: `00-${traceId}-${spanId}-0${traceFlags}` });
    const resumedRun = second.spans().find((s) => s.name === "invoke_agent")!;
    expect(resumedRun.spanContext().traceId).toBe(traceId);
    expect(parentOf(resumedRun)).toBe(spanId);
    expect(resumedRun.attributes).toMatchObject({ "toolwright.run.resumed": true, "toolwright.run.start_step": 2, "toolwright.step_count": 4, "toolwright.usage.model_calls": 4 });
    expect(resumedRun.events.map((e) => [e.name, e.attributes])).toEqual([["toolwright.confirmation", { "gen_ai.tool.name": "add_note", "gen_ai.tool.call.id": "c2", "toolwright.confirmation.action": "confirm" }]]);
    expect(tree(second.spans())).toEqual(["invoke_agent", "  execute_tool add_note", "  chat scripted", "  execute_tool search", "  chat scripted"]);
  });

  it("keep every resumed part a child of the first run's span, so a run of many parts is one flat trace", async () => {
    const { tracing, spans } = recorder();
    const { agent } = notesAgent({ tracing });
    let snapshot: AgentSnapshot | undefined;
    for (let visit = 1; visit <= 3; visit++) {
      const error = await rejectionOf(agent.run({ ...(snapshot ? { snapshot } : notesInput()), breakpoint: { at: "chat_generator", visit } }));
      snapshot = (error as unknown as { snapshot: AgentSnapshot }).snapshot;
    }
    await agent.run({ snapshot: snapshot! });

    const runs = spans().filter((s) => s.name === "invoke_agent");
    expect(runs).toHaveLength(4);
    const root = runs[0]!;
    expect(runs.slice(1).map(parentOf)).toEqual([root.spanContext().spanId, root.spanContext().spanId, root.spanContext().spanId]);
    expect(runs.map((s) => s.attributes["toolwright.exit_reason"])).toEqual(["breakpoint", "breakpoint", "breakpoint", "text"]);
    expect(runs[0]!.events.map((e) => [e.name, e.attributes])).toEqual([["toolwright.breakpoint", { "toolwright.breakpoint.at": "chat_generator", "toolwright.breakpoint.visit": 1 }]]);
  });

  it("refuse a signed snapshot whose trace context was changed", async () => {
    const { tracing } = recorder();
    const snapshotKey = "k".repeat(32);
    const { agent } = notesAgent({ tracing, snapshotKey, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });
    const paused = await agent.run(notesInput());
    const forged = { ...paused.snapshot!, trace: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } };

    const error = await rejectionOf(agent.run({ snapshot: forged, decisions: { c2: { action: "confirm" } } }));

    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).field).toBe("signature");
  });

  it("record a failing model call and the run's failure as errors, with exception events", async () => {
    const { tracing, spans } = recorder();
    const { agent } = notesAgent({
      tracing,
      script: [
        () => {
          throw new ChatGeneratorError("The provider answered 503: overloaded.", { status: 503 });
        },
      ],
    });

    await rejectionOf(agent.run(notesInput()));

    const chat = spans().find((s) => s.name === "chat scripted")!;
    const run = spans().find((s) => s.name === "invoke_agent")!;
    for (const span of [chat, run]) {
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "The provider answered 503: overloaded." });
      expect(span.attributes["error.type"]).toBe("ChatGeneratorError");
      expect(span.events.map((e) => [e.name, e.attributes?.["exception.type"], e.attributes?.["exception.message"]])).toEqual([["exception", "ChatGeneratorError", "The provider answered 503: overloaded."]]);
    }
    expect(run.attributes["toolwright.exit_reason"]).toBeUndefined();
  });

  describe("with a context manager registered", () => {
    beforeAll(() => context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()));
    afterAll(() => context.disable());

    it("make the model call's span active for the generator, and the tool call's for the tool's own spans", async () => {
      const { tracing, provider, spans } = recorder();
      const tracer = provider.getTracer("app");
      const inSpan = (name: string) => tracer.startActiveSpan(name, (span: Span) => span.end());
      const { agent } = notesAgent({
        tracing,
        script: [
          async () => {
            await Promise.resolve();
            inSpan("http.request");
            return ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "search", { query: "lamps" })] });
          },
          ChatMessage.fromAssistant("done"),
        ],
        searchImpl: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          inSpan("db.query");
          return "found";
        },
      });

      await tracer.startActiveSpan("POST /chat", async (request: Span) => {
        await agent.run(notesInput());
        request.end();
      });

      expect(tree(spans())).toEqual(["POST /chat", "  invoke_agent", "    chat scripted", "      http.request", "    execute_tool search", "      db.query", "    chat scripted"]);
      expect(trace.getActiveSpan()).toBeUndefined();
    });

    it("make an agent tool's sub-run a child of the caller's execute_tool span: one trace", async () => {
      const { tracing, spans } = recorder();
      const sub = new Agent({ name: "researcher", tracing, chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("found it")]) });
      const coordinator = new Agent({
        name: "coordinator",
        tracing,
        chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "research", { input: "find" })] }), ChatMessage.fromAssistant("done")]),
        tools: [sub.asTool({ name: "research", description: "Researches." })],
      });
      await coordinator.run({ messages: [ChatMessage.fromUser("go")] });
      expect(tree(spans())).toEqual(["invoke_agent coordinator", "  chat scripted", "  execute_tool research", "    invoke_agent researcher", "      chat scripted", "  chat scripted"]);
      expect(new Set(spans().map((s) => s.spanContext().traceId)).size).toBe(1);
    });

    it("link the request that resumed a run, whose parent stays the paused run", async () => {
      const { tracing, provider, spans } = recorder();
      const { agent } = notesAgent({ tracing, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });
      const paused = await agent.run(notesInput());
      const tracer = provider.getTracer("app");

      await tracer.startActiveSpan("POST /approve", async (request: Span) => {
        await agent.run({ snapshot: paused.snapshot!, decisions: { c2: { action: "confirm" } } });
        request.end();
      });

      const [first, resumed] = spans().filter((s) => s.name === "invoke_agent");
      const request = spans().find((s) => s.name === "POST /approve")!;
      expect(parentOf(resumed!)).toBe(first!.spanContext().spanId);
      expect(resumed!.links.map((l) => l.context.spanId)).toEqual([request.spanContext().spanId]);
    });
  });

  it("make no call traces or events for a run whose trace records nothing, and pass a continued trace context on", async () => {
    const calls: string[] = [];
    const silent: AgentTracing = {
      captureContent: false,
      startRun: (_event, continues) => ({
        traceContext: continues,
        recording: false,
        within: (fn) => fn(),
        startModelCall: () => (calls.push("model"), { within: (fn) => fn(), end: () => {} }),
        startToolCall: () => (calls.push("tool"), { within: (fn) => fn(), end: () => {} }),
        addEvent: () => void calls.push("event"),
        end: () => void calls.push("end"),
      }),
    };
    const { agent } = notesAgent({ tracing: silent, confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });
    const paused = await agent.run(notesInput());
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const stopped = await rejectionOf(agent.run({ snapshot: { ...paused.snapshot!, trace: { traceparent } }, decisions: { c2: { action: "confirm" } }, breakpoint: { at: "chat_generator", visit: 3 } }));

    expect(calls).toEqual([]);
    expect(paused.snapshot!.trace).toBeUndefined();
    expect((stopped as unknown as { snapshot: AgentSnapshot }).snapshot.trace).toEqual({ traceparent });
  });

  it("pass a snapshot's trace context on with openTelemetry() and no provider registered, recording nothing", async () => {
    const { agent } = notesAgent({ tracing: openTelemetry(), confirmationStrategies: { add_note: new DeferredConfirmationStrategy() } });
    const paused = await agent.run(notesInput());
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    const stopped = await rejectionOf(agent.run({ snapshot: { ...paused.snapshot!, trace: { traceparent } }, decisions: { c2: { action: "confirm" } }, breakpoint: { at: "chat_generator", visit: 3 } }));

    expect(paused.snapshot!.trace).toBeUndefined();
    expect((stopped as unknown as { snapshot: AgentSnapshot }).snapshot.trace).toEqual({ traceparent });
  });

  it("report a tracer that throws as a HookError and run on unchanged", async () => {
    const { tracing, spans } = recorder();
    const failing: AgentTracing = {
      captureContent: false,
      startRun(event, continues) {
        const run = tracing.startRun(event, continues);
        return {
          get traceContext() {
            return run.traceContext;
          },
          recording: true,
          within: (fn) => run.within(fn),
          startModelCall() {
            throw new Error("exporter queue full");
          },
          startToolCall: (event) => run.startToolCall(event),
          addEvent: (event) => run.addEvent(event),
          end: (event) => run.end(event),
        };
      },
    };
    const reported: HookError[] = [];
    const plain = await notesAgent().agent.run(notesInput());

    const result = await notesAgent({ tracing: failing, hooks: { onHookError: (e) => void reported.push(e) } }).agent.run(notesInput());

    expect(result.messages.map((m) => m.toJSON())).toEqual(plain.messages.map((m) => m.toJSON()));
    expect(reported.map((e) => e.hook)).toEqual(["tracing.startModelCall", "tracing.startModelCall", "tracing.startModelCall", "tracing.startModelCall"]);
    expect(reported[0]!.message).toBe(
      "The Agent's tracer (tracing.startModelCall) threw: exporter queue full. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them.",
    );
    expect(tree(spans())).toEqual(["invoke_agent", "  execute_tool search", "  execute_tool add_note", "  execute_tool search"]);
  });
});

// The notes script from its third model call on: what a resumed run's model answers.
function notesScriptAfterPause() {
  return [ChatMessage.fromAssistant(undefined, { toolCalls: [call("c3", "search", { query: "chairs" })] }), ChatMessage.fromAssistant("Lamps and chairs are both in stock.")];
}
