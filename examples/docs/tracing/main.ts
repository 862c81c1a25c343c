// The code of docs/tracing.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ChatMessage, type RunUsage, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
// #region otel-imports
// #region agent-import
import { Agent } from "toolwright";
// #endregion
import { openTelemetry } from "toolwright/otel";
// #endregion

const call = (id: string, toolName: string, args: Record<string, unknown> = {}): ToolCall => ({ id, toolName, arguments: args });
const searchTickets = new Tool({ name: "search_tickets", description: "Search tickets.", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] }, function: (args) => `T-1 (${String(args.query)})` });
const addNote = new Tool({ name: "add_note", description: "Add a note.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, function: () => "noted" });
const tools = [searchTickets, addNote];

// Two model calls (300 + 30 tokens), three tool calls of which one names no tool.
function model(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "search_tickets", { query: "printer" }), call("c2", "add_note", { text: "seen" }), call("c3", "nope")], meta: { usage: { promptTokens: 100, completionTokens: 20 } } }),
    ChatMessage.fromAssistant("T-1 is open.", { meta: { usage: { promptTokens: 200, completionTokens: 10 } } }),
  ]);
}

/** Usage, OpenTelemetry spans, and lifecycle hooks of one run. */
export async function run(): Promise<void> {
  await usage();
  await spans();
  await hooks();
}

async function usage(): Promise<void> {
  const agent = new Agent({ chatGenerator: model(), tools });
  const messages = [ChatMessage.fromUser("Is my printer ticket open?")];
  // #region usage
  const { usage } = await agent.run({ messages });
  // { inputTokens: 300, outputTokens: 30, totalTokens: 330, modelCalls: 2, toolCalls: 3, failedToolCalls: 1, toolCallsByName: { … } }
  // #endregion
  assert.deepEqual(usage, { inputTokens: 300, outputTokens: 30, totalTokens: 330, modelCalls: 2, toolCalls: 3, failedToolCalls: 1, toolCallsByName: { search_tickets: 1, add_note: 1, nope: 1 } });
}

async function spans(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  try {
    const chatGenerator = model();
    // #region otel
    const agent = new Agent({ name: "support-desk", chatGenerator, tools, tracing: openTelemetry() });
    // #endregion
    await agent.run({ messages: [ChatMessage.fromUser("Is my printer ticket open?")] });
    const names = exporter.getFinishedSpans().map((span) => span.name);
    assert.deepEqual(names.sort(), ["chat scripted", "chat scripted", "execute_tool add_note", "execute_tool nope", "execute_tool search_tickets", "invoke_agent support-desk"].sort());
    const root = exporter.getFinishedSpans().find((span) => span.name.startsWith("invoke_agent"))!;
    assert.equal(root.attributes["gen_ai.usage.input_tokens"], 300);
    assert.equal(root.attributes["toolwright.usage.failed_tool_calls"], 1);
  } finally {
    trace.disable();
    await provider.shutdown();
  }
}

async function hooks(): Promise<void> {
  const chatGenerator = model();
  const messages = [ChatMessage.fromUser("Is my printer ticket open?")];
  const seen: string[] = [];
  const metrics = { histogram: (name: string, value: number, attributes: Record<string, string | undefined>) => void seen.push(`${name} ${value >= 0} ${attributes.model ?? "-"}`) };
  const log = { warn: (fields: object) => void seen.push(`warn ${JSON.stringify(fields)}`), error: (fields: object, message?: string) => void seen.push(`error ${JSON.stringify(fields)} ${message ?? ""}`) };
  const billing = { record: (runId: string, usage: RunUsage) => void seen.push(`billing ${runId.length} ${usage.totalTokens}`) };
  const socket = { send: (data: object) => void seen.push(`socket ${JSON.stringify(data)}`) };
  // #region hooks
  const agent = new Agent({
    chatGenerator,
    tools,
    hooks: {
      onModelEnd: (e) => metrics.histogram("llm.latency_ms", e.endTime - e.startTime, { model: e.responseModel }),
      onToolEnd: (e) => e.error && log.warn({ tool: e.toolName, call: e.toolCallId, error: e.error.message }),
      onToolError: (e) => log.error({ tool: e.toolName, kind: e.kind, stack: e.kind === "inputsFromState" ? undefined : e.error.stack }, e.message),
      onRunEnd: (e) => billing.record(e.runId, e.usage),
      onHookError: (error) => log.error(error),
    },
  });
  await agent.run({ messages, hooks: { onToolStart: (e) => socket.send({ running: e.toolName }) } });
  // #endregion
  assert.deepEqual(seen, [
    "llm.latency_ms true scripted",
    'socket {"running":"search_tickets"}',
    'socket {"running":"add_note"}',
    'socket {"running":"nope"}',
    'warn {"tool":"nope","call":"c3","error":"Tool \'nope\' not found. Available tools: search_tickets, add_note."}',
    "llm.latency_ms true scripted",
    "billing 36 330",
  ]);
}
