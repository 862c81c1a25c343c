// RunQueue and RunWorker across real processes: worker processes (dist/bench/cluster/workerProcess.js,
// built by `npm test` before jest runs) on a real redis-server, one of them SIGKILLed mid-run.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { RunQueue, RunStateError, type RunEventEntry, type RunOutcome } from "toolwright/bullmq";
import { startRedis, type RedisServer } from "../support/redisServer";

const workerScript = path.join(__dirname, "../../dist/bench/cluster/workerProcess.js");

let redis: RedisServer;
let side: Redis;
const children = new Set<ChildProcess>();
const queues = new Set<RunQueue>();

beforeAll(async () => {
  if (!existsSync(workerScript)) throw new Error(`${workerScript} is missing; run \`npm run build\` first (npm test does).`);
  redis = await startRedis();
  side = new Redis({ host: redis.host, port: redis.port, maxRetriesPerRequest: null });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await Promise.all([...children].map((child) => exited(child)));
  await Promise.all([...queues].map((queue) => queue.close().catch(() => undefined)));
  side?.disconnect();
  await redis?.stop();
});

interface WorkerHandle {
  readonly child: ChildProcess;
  /** The BullMQ worker's id: the jobs it holds have lock tokens `<id>:<n>`. */
  readonly id: string;
  /** What the process wrote to stderr, for failure messages. */
  stderr(): string;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Starts a worker process and resolves once it printed "ready". */
async function startWorker(env: Record<string, string | number>): Promise<WorkerHandle> {
  const child = spawn(process.execPath, [workerScript], {
    env: { ...process.env, REDIS_PORT: String(redis.port), ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stderr = "";
  child.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
  const id = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`worker process did not print "ready" within 10 s:\n${stderr}`)), 10_000);
    child.stdout!.on("data", (data: Buffer) => {
      stdout += data.toString();
      const match = /^ready\nworker (\S+)\n/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`worker process exited (${code ?? signal}) before it was ready:\n${stderr}`));
    });
  });
  child.stdout!.resume();
  return { child, id, stderr: () => stderr };
}

/** Stops worker processes gracefully (SIGTERM) and checks they closed cleanly. */
async function stopWorkers(workers: readonly WorkerHandle[]): Promise<void> {
  await Promise.all(
    workers.map(async ({ child, stderr }) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await exited(child);
      expect({ code: child.exitCode, stderr: stderr() }).toEqual({ code: 0, stderr: "" });
    }),
  );
}

function newQueue(name: string): RunQueue {
  const queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name });
  queues.add(queue);
  return queue;
}

/** Every event of a run from the first, across legs (events() ends at each leg's end), up to its `result`. */
async function allEvents(queue: RunQueue, runId: string, after = "0"): Promise<RunEventEntry[]> {
  const out: RunEventEntry[] = [];
  for (;;) {
    let last: RunEventEntry | undefined;
    for await (const entry of queue.events(runId, { after: out.at(-1)?.id ?? after })) {
      out.push(entry);
      last = entry;
    }
    if (last === undefined || last.event.type !== "paused") return out;
  }
}

function textOf(outcome: RunOutcome): string | undefined {
  if (outcome.status !== "done") return `(${outcome.status}: ${JSON.stringify(outcome)})`;
  return ChatMessage.fromJSON(outcome.result.lastMessage).text;
}

/** The side store's counts for the keys matching a pattern. */
async function sideCounts(pattern: string): Promise<Map<string, number>> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await side.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  const values = keys.length === 0 ? [] : await side.mget(...keys);
  return new Map(keys.map((key, i) => [key, Number(values[i])]));
}

describe("RunQueue and RunWorker across worker processes", () => {
  it("finishes every run on the surviving worker when a worker process is SIGKILLed mid-run, re-running only the steps in flight", async () => {
    const name = "chaos";
    const concurrency = 4;
    const steps = 4;
    const runs = 50;
    const queue = newQueue(name);
    const workerEnv = { QUEUE_NAME: name, CONCURRENCY: concurrency, LOCK_MS: 1000, TOOL_DELAY_MS: 20 };
    const [victim, survivor] = await Promise.all([startWorker(workerEnv), startWorker(workerEnv)]);

    const runIds = await Promise.all(Array.from({ length: runs }, (_, i) => queue.start({ messages: [ChatMessage.fromUser(`steps:${steps}`)] }, { runId: `chaos-${i}` })));
    const outcomes = Promise.all(runIds.map((runId) => queue.result(runId, { timeoutMs: 25_000 })));

    // Kill once about a third of the runs have a checkpoint and the victim is inside at least two steps
    // (it holds their jobs' locks and their runs are "running"), so that a step is really lost.
    const started = Date.now();
    for (;;) {
      const active = await queue.bullQueue.getActive();
      const pipeline = side.pipeline();
      for (const runId of runIds) pipeline.hexists(`toolwright:${name}:run:${runId}`, "checkpoint");
      for (const job of active) pipeline.get(`toolwright:${name}:${job.id}:lock`).hget(`toolwright:${name}:run:${job.data.runId}`, "status");
      const replies = ((await pipeline.exec()) ?? []).map(([, value]) => value);
      const checkpointed = replies.slice(0, runs).filter((value) => value === 1).length;
      const victimRunning = active.filter((_, i) => String(replies[runs + 2 * i]).startsWith(`${victim.id}:`) && replies[runs + 2 * i + 1] === "running").length;
      if (checkpointed >= runs / 3 && victimRunning >= 2) break;
      if (Date.now() - started > 5000) throw new Error(`the victim worker never held two running steps (checkpointed: ${checkpointed}, active: ${active.length})`);
    }
    victim.child.kill("SIGKILL");
    await exited(victim.child);

    const results = await outcomes;
    expect(results.map((outcome) => outcome.status)).toEqual(runIds.map(() => "done"));
    expect(results.map(textOf)).toEqual(runIds.map(() => `done ${steps}`));

    // Every step's side effect happened; twice only for steps the killed worker had in flight.
    const counts = await sideCounts("side:chaos-*");
    const expected = runIds.flatMap((runId) => Array.from({ length: steps }, (_, i) => `side:${runId}:${i + 1}:call-${i + 1}`));
    expect([...counts.keys()].sort()).toEqual([...expected].sort());
    const repeated = [...counts].filter(([, count]) => count > 1);
    expect(repeated.length).toBeLessThanOrEqual(concurrency);
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);

    // A run really moved: its stream says so, and every step repeated belongs to a run that moved.
    const events = await Promise.all(runIds.map((runId) => allEvents(queue, runId)));
    const recovered = runIds.filter((_, i) => events[i]!.some(({ event }) => event.type === "recovered"));
    expect(recovered.length).toBeGreaterThanOrEqual(1);
    expect(recovered.length).toBeLessThanOrEqual(concurrency);
    for (const [key] of repeated) expect(recovered).toContain(key.split(":")[1]);
    for (const runEvents of events) expect(runEvents.at(-1)!.event.type).toBe("result");

    await stopWorkers([survivor]);
  }, 40_000);

  it("runs 100 concurrent runs with distinct inputs over 3 worker processes without cross-talk", async () => {
    const name = "many";
    const queue = newQueue(name);
    const workers = await Promise.all([1, 2, 3].map(() => startWorker({ QUEUE_NAME: name, CONCURRENCY: 8, TOOL_DELAY_MS: 5 })));
    const inputs = Array.from({ length: 100 }, (_, i) => ({ runId: `many-${i}`, steps: (i % 5) + 1 }));

    const runIds = await Promise.all(inputs.map(({ runId, steps }) => queue.start({ messages: [ChatMessage.fromUser(`steps:${steps} tag:${runId}`)] }, { runId })));
    const results = await Promise.all(runIds.map((runId) => queue.result(runId, { timeoutMs: 25_000 })));

    expect(results.map((outcome) => outcome.status)).toEqual(inputs.map(() => "done"));
    expect(results.map(textOf)).toEqual(inputs.map(({ runId, steps }) => `done ${steps} ${runId}`));
    for (const [i, outcome] of results.entries()) {
      if (outcome.status !== "done") continue;
      const toolResults = outcome.result.messages.map((m) => ChatMessage.fromJSON(m)).flatMap((m) => m.toolCallResults);
      expect(toolResults.map((r) => r.result)).toEqual(Array.from({ length: inputs[i]!.steps }, (_, n) => String(n + 1)));
    }

    const events = await Promise.all(runIds.map((runId) => allEvents(queue, runId)));
    expect(events.map((e) => e.filter(({ event }) => event.type === "toolResult").length)).toEqual(inputs.map(({ steps }) => steps));
    expect(events.flat().filter(({ event }) => event.type === "recovered")).toEqual([]);

    const counts = await sideCounts("side:many-*");
    const expected = inputs.flatMap(({ runId, steps }) => Array.from({ length: steps }, (_, n) => `side:${runId}:${n + 1}:call-${n + 1}`));
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(expected.map((key) => [key, 1])));

    await stopWorkers(workers);
  }, 30_000);

  it("pauses via one replica, resumes via another, and a third follows the stream across a reconnect without loss or repeats", async () => {
    const name = "replicas";
    const connection = { host: redis.host, port: redis.port };
    const a = newQueue(name);
    const b = new RunQueue({ connection, name });
    queues.add(b);
    const c = new RunQueue({ connection, name });
    queues.add(c);
    const worker = await startWorker({ QUEUE_NAME: name, CONCURRENCY: 2, CONFIRM: 1 });

    const runId = await a.start({ messages: [ChatMessage.fromUser("steps:2 tag:replicas")] });

    // The follower on C: reads a couple of events, drops the connection, reconnects after the last id seen.
    const follower = (async () => {
      const seen: RunEventEntry[] = [];
      for await (const entry of c.events(runId)) {
        seen.push(entry);
        if (seen.length === 2) break;
      }
      const lastId = seen.at(-1)!.id;
      seen.push(...(await allEvents(c, runId, lastId)));
      return { seen, lastId };
    })();

    expect(await a.result(runId, { timeoutMs: 10_000 })).toEqual({ status: "paused", pendingConfirmations: [{ toolCallId: "call-1", toolName: "record", arguments: { n: 1 } }] });
    expect(await b.result(runId, { timeoutMs: 10_000 })).toEqual(await a.result(runId));
    await b.resume(runId, { "call-1": { action: "confirm" } });

    expect(await b.result(runId, { timeoutMs: 10_000 })).toEqual({ status: "paused", pendingConfirmations: [{ toolCallId: "call-2", toolName: "record", arguments: { n: 2 } }] });
    // Two replicas resume the same pause at once: exactly one wins.
    const resumes = await Promise.allSettled([a.resume(runId, { "call-2": { action: "confirm" } }), b.resume(runId, { "call-2": { action: "confirm" } })]);
    expect(resumes.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((resumes.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(RunStateError);

    const done = await a.result(runId, { timeoutMs: 10_000 });
    expect(textOf(done)).toBe("done 2 replicas");

    const { seen, lastId } = await follower;
    const full = await allEvents(c, runId);
    expect(full.map(({ event }) => event.type).filter((type) => type === "paused" || type === "result")).toEqual(["paused", "paused", "result"]);
    expect(full.findIndex(({ id }) => id === lastId)).toBe(1);
    expect(seen).toEqual(full);
    expect(Object.fromEntries(await sideCounts(`side:${runId}:*`))).toEqual({ [`side:${runId}:1:call-1`]: 1, [`side:${runId}:2:call-2`]: 1 });

    await stopWorkers([worker]);
  }, 20_000);
});
