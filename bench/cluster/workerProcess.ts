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
//   SIDE_PORT      the port of the side store's Redis (the fault tests keep it out of the faults) default REDIS_PORT
//   DATABASE_URL   a Postgres: the worker's conversationStore (postgresConversationStore, migrated at start)  default none
//   CRASH_BEFORE_APPEND "1": the store's first append SIGKILLs this process before it writes (the crash between a run's end and its append)
//   CRASH_AFTER_APPEND  "1": the store's first append SIGKILLs this process right after it wrote, before the worker records the end
//
// The model is CountingModel (countingModel.ts): a run whose first user message says "steps:N" calls
// `record({ n })` with call id `call-<n>` for n = 1..N, one call per step, then answers "done N"
// (" <tag>" added for "tag:<tag>"). `record` waits TOOL_DELAY_MS, then INCRs `side:<idempotencyKey>` in Redis (a side
// store: how often each call's side effect really happened) and returns n.
//
// Prints "ready" once the worker is constructed, then "worker <BullMQ worker id>"; closes cleanly on SIGTERM (or SIGINT).
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { Pool } from "pg";
import { Agent, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunWorker } from "toolwright/bullmq";
import { migrateConversationStore, postgresConversationStore, type ConversationStore } from "toolwright/conversations";
import { CountingModel } from "./countingModel";

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

// SIGKILLs this process; nothing after it runs.
function die(): Promise<never> {
  process.kill(process.pid, "SIGKILL");
  return new Promise<never>(() => undefined);
}

// The store whose first append kills this process, before or after the write: a worker lost at the end of a run.
function crashingAt(store: ConversationStore, when: "before" | "after"): ConversationStore {
  let armed = true;
  const append: ConversationStore["append"] = async (...args) => {
    const crash = armed;
    armed = false;
    if (crash && when === "before") return die();
    const written = await store.append(...args);
    return crash ? die() : written;
  };
  return Object.assign(Object.create(store) as ConversationStore, { append });
}

async function conversationStoreFromEnv(): Promise<{ store: ConversationStore; pool: Pool } | undefined> {
  const url = process.env.DATABASE_URL;
  if (!url) return undefined;
  const pool = new Pool({ connectionString: url, max: 4 });
  await migrateConversationStore({ pool });
  const store = postgresConversationStore({ pool });
  if (process.env.CRASH_BEFORE_APPEND === "1") return { store: crashingAt(store, "before"), pool };
  if (process.env.CRASH_AFTER_APPEND === "1") return { store: crashingAt(store, "after"), pool };
  return { store, pool };
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
  const conversations = await conversationStoreFromEnv();

  const side = new Redis({ host, port: intFromEnv("SIDE_PORT", port), maxRetriesPerRequest: null });
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
    ...(conversations && { conversationStore: conversations.store }),
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
      await conversations?.pool.end();
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
