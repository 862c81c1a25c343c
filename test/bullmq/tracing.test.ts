// A queued run traced with openTelemetry(): each step is a job of its own (here on two workers),
// and every step's invoke_agent span continues the first step's trace through the checkpoints.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Agent, type ChatGenerator, ChatMessage, Tool } from "toolwright";
import { RunQueue, RunWorker } from "toolwright/bullmq";
import { openTelemetry } from "toolwright/otel";
import { toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { useRedisServer } from "../support/redisServer";

const redis = useRedisServer();

it("keeps a queued run's steps, queued for two workers, in one trace under its first step's span, with the run's usage on its result", async () => {
  const connection = { host: redis.host, port: redis.port };
  const exporter = new InMemorySpanExporter();
  const tracing = openTelemetry({ tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) });
  const add = new Tool({ name: "add", description: "Add two numbers.", parameters: z.object({ a: z.number(), b: z.number() }), function: ({ a, b }) => a + b });
  const replies = [
    toolCallReply(["add", { a: 1, b: 2 }, "c1"]),
    toolCallReply(["add", { a: 3, b: 4 }, "c2"]),
    ChatMessage.fromAssistant("3 and 7", { meta: { usage: { promptTokens: 50, completionTokens: 5 } } }),
  ];
  // Two workers, each with an Agent of its own as two processes would have; the model answers by how
  // far the conversation is, so whichever worker runs a step gives the same answer.
  const chatGenerator: ChatGenerator = {
    model: "step-model",
    provider: "test",
    run: async (request) => ({ replies: [replies[request.messages.filter((m) => m.role === "assistant").length]!] }),
  };
  const agents = [0, 1].map(() => new Agent({ name: "adder", chatGenerator, tools: [add], tracing }));
  const queue = new RunQueue({ connection, name: "traced" });
  const workers = agents.map((agent) => new RunWorker({ agent, connection, name: "traced" }));
  try {
    const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
    for await (const entry of queue.events(runId)) if (entry.event.type === "result" || entry.event.type === "failed") break;
    const outcome = await queue.result(runId);

    if (outcome.status !== "done") throw new Error(`run ended ${outcome.status}`);
    expect(outcome.result.usage).toEqual({ inputTokens: 50, outputTokens: 5, totalTokens: 55, modelCalls: 3, toolCalls: 2, failedToolCalls: 0, toolCallsByName: { add: 2 } });
    const runs = exporter.getFinishedSpans().filter((s) => s.name === "invoke_agent adder");
    expect(runs.length).toBeGreaterThanOrEqual(3);
    const first = runs.find((s) => s.attributes["toolwright.run.resumed"] === false)!;
    expect(new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId))).toEqual(new Set([first.spanContext().traceId]));
    for (const span of runs) if (span !== first) expect(span.parentSpanContext?.spanId).toBe(first.spanContext().spanId);
    expect(runs.map((s) => s.attributes["toolwright.run.id"])).toEqual(runs.map(() => runId));
    expect(exporter.getFinishedSpans().filter((s) => s.name === "chat step-model").length).toBe(3);
  } finally {
    await Promise.all([queue.close(), ...workers.map((w) => w.close())]);
  }
});

