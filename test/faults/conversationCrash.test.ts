// The crash between a run's end and its append, with real processes: a RunWorker process whose
// conversation store (a real Postgres) SIGKILLs it at its first append, before or right after the
// write, and a second worker process that takes the step once the lock expires. The thread must end
// with the run's messages exactly once, and the run done.
import { Pool } from "pg";
import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { RunQueue } from "toolwright/bullmq";
import { postgresConversationStore, type ConversationStore } from "toolwright/conversations";
import type { RunningProcess } from "../support/childProcess";
import { startRedis, type RedisServer } from "../support/redisServer";
import { startPostgresServer, type PostgresServer } from "../helpers/postgresServer";
import { endAll, startWorker, stopWorkers, until } from "./faultHarness";

let side: RedisServer;
let redis: RedisServer;
let postgres: PostgresServer;
let pool: Pool;
let store: ConversationStore;
const workers = new Set<RunningProcess>();
const queues = new Set<RunQueue>();

beforeAll(async () => {
  [side, redis, postgres] = await Promise.all([startRedis(), startRedis(), startPostgresServer()]);
  pool = new Pool({ connectionString: postgres.url, max: 2 });
});

afterEach(async () => {
  await endAll(workers, queues);
});

afterAll(async () => {
  await pool?.end();
  await Promise.all([side?.stop(), redis?.stop(), postgres?.stop()]);
});

const roles = (messages: readonly ChatMessage[]) => messages.map((m) => `${m.role}:${m.toolCallResult?.result ?? m.text ?? m.toolCalls.map((c) => c.toolName).join(",")}`);

async function worker(name: string, env: Record<string, string> = {}): Promise<RunningProcess> {
  const started = await startWorker(redis, side, name, { DATABASE_URL: postgres.url, ...env });
  workers.add(started);
  return started;
}

/** Starts a two-step run in thread `<name>` on a worker that dies at the append, then a second worker; resolves with what the queue and the thread say. */
async function crashAtAppend(name: string, crash: "CRASH_BEFORE_APPEND" | "CRASH_AFTER_APPEND") {
  store ??= postgresConversationStore({ pool });
  const queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name });
  queues.add(queue);
  const doomed = await worker(name, { [crash]: "1" });
  const runId = await queue.start({ messages: [ChatMessage.fromUser(`steps:2 tag:${name}`)], conversation: { threadId: name } }, { runId: `${name}-run` });
  await until(() => doomed.child.signalCode === "SIGKILL", `the worker of ${name} killed itself at the append`, 30_000);
  const atCrash = await store.load(name);
  // Started after the crash, so that the step the dead worker held is the one it takes (once its lock expires).
  const survivor = await worker(name);
  const outcome = await queue.result(runId, { timeoutMs: 30_000 });
  const recovered: number[] = [];
  for await (const { event } of queue.events(runId)) if (event.type === "recovered") recovered.push(event.stepCount);
  const after = await store.load(name);
  await stopWorkers([survivor]);
  return { runId, outcome, recovered, atCrash: { version: atCrash.version, messages: roles(atCrash.messages) }, after: { version: after.version, messages: roles(after.messages) } };
}

const theRun = (tag: string) => [`user:steps:2 tag:${tag}`, "assistant:record", "tool:1", "assistant:record", "tool:2", `assistant:done 2 ${tag}`];

describe("RunWorker with conversationStore", () => {
  it("appends the run once when its worker is killed between the run's end and the append, on the worker that takes the step", async () => {
    const { outcome, recovered, atCrash, after } = await crashAtAppend("crash-before", "CRASH_BEFORE_APPEND");
    expect(atCrash).toEqual({ version: 0, messages: [] });
    if (outcome.status !== "done") throw new Error(`done expected, got ${JSON.stringify(outcome)}`);
    expect(ChatMessage.fromJSON(outcome.result.lastMessage).text).toBe("done 2 crash-before");
    expect(outcome.result.conversation).toEqual({ threadId: "crash-before", version: 1, appended: 6 });
    expect(recovered).toHaveLength(1);
    expect(after).toEqual({ version: 1, messages: theRun("crash-before") });
  });

  it("appends nothing more when its worker is killed right after the append wrote, the step run again giving the same messages", async () => {
    const { outcome, recovered, atCrash, after } = await crashAtAppend("crash-after", "CRASH_AFTER_APPEND");
    expect(atCrash).toEqual({ version: 1, messages: theRun("crash-after") });
    if (outcome.status !== "done") throw new Error(`done expected, got ${JSON.stringify(outcome)}`);
    expect(outcome.result.conversation).toEqual({ threadId: "crash-after", version: 1, appended: 0 });
    expect(recovered).toHaveLength(1);
    expect(after).toEqual({ version: 1, messages: theRun("crash-after") });
  });
});
