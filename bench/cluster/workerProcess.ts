// A RunWorker in its own process, for the cluster tests and benchmarks: `node dist/bench/cluster/workerProcess.js`.
//
// Configured from the environment:
//   REDIS_PORT     the Redis port on 127.0.0.1 (REDIS_HOST to change the host)       required
//   QUEUE_NAME     the RunQueue / RunWorker name                                    default toolwright-runs
//   CONCURRENCY    steps this worker runs at once                                   default 1
//   LOCK_MS        lockDurationMs; stalledIntervalMs is LOCK_MS / 2                 default 30000
//   TOOL_DELAY_MS  how long each `record` call takes                               default 0
//   MAX_STALLED    maxStalledCount                                                  default 3 (RunWorker's)
//   CONFIRM        "1": every `record` call waits for a decision (DeferredConfirmationStrategy)
//
// The model is scripted and deterministic for any run: a run whose first user message says
// "steps:N" calls `record({ n })` with call id `call-<n>` for n = 1..N, one call per step, then
// answers "done N" (followed by " <tag>" when the message also says "tag:<tag>", so that a test can
// tell runs with the same N apart). `record` waits TOOL_DELAY_MS, then INCRs `side:<idempotencyKey>` in Redis (a side
// store: how often each call's side effect really happened) and returns n.
//
// Prints "ready" once the worker is constructed, then "worker <BullMQ worker id>"; closes cleanly on SIGTERM (or SIGINT).
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { Agent, ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunWorker } from "toolwright/bullmq";

function intFromEnv(name: string, fallback: number | undefined): number {
  const text = process.env[name];
  if (text === undefined || text === "") {
    if (fallback === undefined) throw new Error(`workerProcess: set ${name}.`);
    return fallback;
  }
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`workerProcess: ${name} must be a whole number, got '${text}'.`);
  return value;
}

/** What the run asks for in its first user message: N from "steps:N" (default 1), and its "tag:<tag>". */
function requestOf(messages: readonly ChatMessage[]): { steps: number; tag: string | undefined } {
  const first = messages.find((m) => m.role === "user")?.text ?? "";
  const steps = /steps:(\d+)/.exec(first);
  const tag = /tag:(\S+)/.exec(first);
  return { steps: steps ? Number(steps[1]) : 1, tag: tag?.[1] };
}

/**
 * A deterministic model for any run: it works from the request alone (no per-run memory), so a step
 * run again on another worker after a crash gets the same reply.
 */
export class CountingModel implements ChatGenerator {
  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    request.signal?.throwIfAborted();
    const { steps: wanted, tag } = requestOf(request.messages);
    let done = 0;
    for (const message of request.messages) done += message.toolCallResults.length;
    const reply =
      done < wanted
        ? ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `call-${done + 1}`, toolName: "record", arguments: { n: done + 1 } }] })
        : ChatMessage.fromAssistant(tag === undefined ? `done ${done}` : `done ${done} ${tag}`);
    const callback = request.streamingCallback;
    if (callback) {
      if (reply.text) await callback({ type: "text", delta: reply.text });
      for (const [index, call] of reply.toolCalls.entries()) {
        await callback({ type: "toolCallDelta", index, id: call.id, toolName: call.toolName, argumentsDelta: JSON.stringify(call.arguments) });
      }
      await callback({ type: "finish", finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop" });
    }
    return { replies: [reply], meta: { model: "counting", finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop" } };
  }
}

async function main(): Promise<void> {
  const host = process.env.REDIS_HOST || "127.0.0.1";
  const port = intFromEnv("REDIS_PORT", undefined);
  const name = process.env.QUEUE_NAME || "toolwright-runs";
  const concurrency = Math.max(1, intFromEnv("CONCURRENCY", 1));
  const lockMs = Math.max(2, intFromEnv("LOCK_MS", 30_000));
  const toolDelayMs = intFromEnv("TOOL_DELAY_MS", 0);
  const maxStalled = intFromEnv("MAX_STALLED", 3);
  const confirm = process.env.CONFIRM === "1";

  const side = new Redis({ host, port, maxRetriesPerRequest: null });
  const record = new Tool({
    name: "record",
    description: "Record step n.",
    parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
    function: async ({ n }, context) => {
      if (toolDelayMs > 0) await sleep(toolDelayMs, undefined, { signal: context.signal });
      context.signal.throwIfAborted();
      await side.incr(`side:${context.idempotencyKey}`);
      return n;
    },
  });
  const agent = new Agent({
    chatGenerator: new CountingModel(),
    tools: [record],
    ...(confirm && { confirmationStrategies: { record: new DeferredConfirmationStrategy() } }),
  });
  const worker = new RunWorker({
    agent,
    connection: { host, port },
    name,
    concurrency,
    lockDurationMs: lockMs,
    stalledIntervalMs: Math.max(1, Math.floor(lockMs / 2)),
    maxStalledCount: Math.max(1, maxStalled),
  });
  worker.bullWorker.on("error", (error) => process.stderr.write(`workerProcess ${process.pid}: ${error.message}\n`));
  // "ready", then the BullMQ worker's id (the prefix of the lock tokens of the jobs it holds).
  process.stdout.write(`ready\nworker ${worker.bullWorker.id}\n`);

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    try {
      await worker.close();
      await side.quit().catch(() => side.disconnect());
      process.exit(0);
    } catch (error) {
      process.stderr.write(`workerProcess ${process.pid}: close on ${signal} failed: ${(error as Error).message}\n`);
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void close("SIGTERM"));
  process.on("SIGINT", () => void close("SIGINT"));
}

main().catch((error: unknown) => {
  process.stderr.write(`workerProcess: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
