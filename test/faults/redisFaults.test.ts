// The fault suite of toolwright/bullmq (`npm run test:faults`): real worker processes on a real
// redis-server, with the faults of production: a worker killed, a worker frozen past its lock, Redis
// killed and restarted from its AOF, Redis paused, Redis out of memory. Each test counts runs lost,
// runs stuck, completed steps run twice and cancellations nobody asked for, and asserts all are 0.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { RunQueue, RunWaitError } from "toolwright/bullmq";
import type { RunningProcess } from "../support/childProcess";
import { startRedis, type RedisServer } from "../support/redisServer";
import { callsMade, countFaults, endAll, locksHeldBy, type FaultCounts, report, startRuns, startWorker, stopWorkers, until } from "./faultHarness";

const runs = 24;
const steps = 4;

let side: RedisServer;
let sideClient: Redis;
const servers = new Set<RedisServer>();
const workers = new Set<RunningProcess>();
const queues = new Set<RunQueue>();
const dirs: string[] = [];

beforeAll(async () => {
  side = await startRedis();
  sideClient = new Redis({ host: side.host, port: side.port });
});

afterEach(async () => {
  await endAll(workers, queues);
  await Promise.all([...servers].map((server) => server.stop()));
  servers.clear();
});

afterAll(async () => {
  sideClient?.disconnect();
  await side?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function redisFor(options: { appendOnly?: boolean; port?: number; dir?: string } = {}): Promise<RedisServer> {
  // appendfsync always: with everysec a kill of Redis may lose writes it acknowledged while a slow
  // fsync held them back (seen once in CI: two checkpoints lost, two completed steps run again).
  const server = await startRedis({ ...(options.port !== undefined && { port: options.port }), ...(options.appendOnly && { appendOnlyDir: options.dir, appendFsync: "always" as const }) });
  servers.add(server);
  const admin = new Redis({ host: server.host, port: server.port });
  await admin.config("SET", "maxmemory-policy", "noeviction");
  admin.disconnect();
  return server;
}

function queueOn(redis: RedisServer, name: string): RunQueue {
  const queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name, requestTimeoutMs: 2000 });
  queues.add(queue);
  return queue;
}

async function workersOn(redis: RedisServer, name: string, count: number): Promise<RunningProcess[]> {
  const started = await Promise.all(Array.from({ length: count }, () => startWorker(redis, side, name)));
  for (const worker of started) workers.add(worker);
  return started;
}

// After the fault: the documented recovery (recover() on any replica), tolerating a Redis still coming back.
async function recoverAll(queue: RunQueue): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await queue.recover()).length;
    } catch (error) {
      if (!(error instanceof RunWaitError) || attempt === 5) throw error;
    }
  }
}

function expectNoHarm(counts: FaultCounts, total = runs): void {
  expect({ lost: counts.lost, stuck: counts.stuck, failed: counts.failed, completedStepsRunTwice: counts.completedStepsRunTwice, unaskedCancellations: counts.unaskedCancellations, done: counts.done }).toEqual({
    lost: 0,
    stuck: 0,
    failed: 0,
    completedStepsRunTwice: 0,
    unaskedCancellations: 0,
    done: total,
  });
}

describe("toolwright/bullmq under faults", () => {
  it("loses and repeats nothing when a worker process is SIGKILLed mid-run", async () => {
    const name = "kill-worker";
    const redis = await redisFor();
    const queue = queueOn(redis, name);
    // The victim starts alone, so that it holds steps when it is killed (with both started at once a
    // slow start on a loaded machine could leave it nothing, and nothing to recover).
    const [victim] = await workersOn(redis, name, 1);
    const runIds = await startRuns(queue, name, runs, steps);
    await until(async () => (await callsMade(sideClient, name)) >= 1, "the victim made a call");
    const [survivor] = await workersOn(redis, name, 1);
    await until(async () => (await callsMade(sideClient, name)) >= runs, "a quarter of the calls ran");
    // Killed while it holds steps (a lock of its own), so that there is something to recover: killed
    // between two steps, it would leave nothing behind and the test would prove nothing.
    const admin = new Redis({ host: redis.host, port: redis.port });
    try {
      await until(async () => (await locksHeldBy(admin, name, victim!.ready[1]!)) >= 2, "the victim holds two steps");
    } finally {
      admin.disconnect();
    }
    victim!.child.kill("SIGKILL");
    await victim!.stop();
    workers.delete(victim!);

    const counts = await countFaults(queue, sideClient, runIds, steps, await recoverAll(queue));
    report("worker SIGKILL", counts);
    expectNoHarm(counts);
    expect(counts.recovered).toBeGreaterThanOrEqual(1);
    await stopWorkers([survivor!]);
  }, 60_000);

  it("changes no run's outcome when a worker process is frozen (SIGSTOP) past its lock and then continues, twice", async () => {
    const name = "freeze-worker";
    // More work than the other tests: when the frozen worker continues, the runs it lost are still
    // going on the other worker (mostly queued between steps), where its late writes would land.
    const freezeRuns = 40;
    const freezeSteps = 6;
    const redis = await redisFor();
    const queue = queueOn(redis, name);
    const [frozen, other] = await workersOn(redis, name, 2);
    const runIds = await startRuns(queue, name, freezeRuns, freezeSteps);
    for (const calls of [freezeRuns / 2, freezeRuns * 2]) {
      await until(async () => (await callsMade(sideClient, name)) >= calls, `${calls} calls ran`);
      frozen!.child.kill("SIGSTOP");
      await sleep(1800); // lockDurationMs is 1000: its steps are handed to the other worker meanwhile
      frozen!.child.kill("SIGCONT");
    }

    const counts = await countFaults(queue, sideClient, runIds, freezeSteps, await recoverAll(queue));
    report("worker SIGSTOP past its lock, twice", counts);
    expectNoHarm(counts, freezeRuns);
    expect(counts.recovered).toBeGreaterThanOrEqual(1);
    await stopWorkers([frozen!, other!]);
  }, 60_000);

  it("keeps a frozen worker's late checkpoint from cancelling a run another worker moved on (paused, then resumed and queued)", async () => {
    const name = "fence";
    const redis = await redisFor();
    const queue = queueOn(redis, name);
    const admin = new Redis({ host: redis.host, port: redis.port });
    try {
      const env = { CONCURRENCY: 1, LOCK_MS: 500, TOOL_DELAY_MS: 1000, CONFIRM: 1 };
      const frozen = await startWorker(redis, side, name, env);
      workers.add(frozen);
      const runId = await queue.start({ messages: [ChatMessage.fromUser("steps:2 tag:fence-0")] }, { runId: "fence-0" });
      expect(await queue.result(runId, { timeoutMs: 10_000 })).toMatchObject({ status: "paused", pendingConfirmations: [{ toolCallId: "call-1" }] });
      await queue.resume(runId, { "call-1": { action: "confirm" } });
      // The frozen worker is inside call-1 (it takes 1 s) when it stops.
      const workerId = frozen.ready[1]!;
      await until(async () => (await admin.get(`toolwright:${name}:${runId}.leg1:lock`))?.startsWith(`${workerId}:`) === true, "the first worker runs the resumed step");
      await sleep(400); // into the 1 s of call-1: its claim, record read and checkpoint are behind it
      frozen.child.kill("SIGSTOP");
      try {
        // Another worker takes the step after the lock ran out, runs it, and the run pauses at call-2;
        // that worker leaves, and the run is resumed: it is queued when the frozen worker continues.
        const other = await startWorker(redis, side, name, env);
        workers.add(other);
        expect(await queue.result(runId, { timeoutMs: 15_000 })).toMatchObject({ status: "paused", pendingConfirmations: [{ toolCallId: "call-2" }] });
        await stopWorkers([other]);
        workers.delete(other);
        await queue.resume(runId, { "call-2": { action: "confirm" } });
        expect(await admin.hget(`toolwright:${name}:run:${runId}`, "status")).toBe("queued");
      } finally {
        frozen.child.kill("SIGCONT");
      }
      // Its late checkpoint of call-1 is refused (the step is not its own any more); it then takes the queued step itself.
      const outcome = await queue.result(runId, { timeoutMs: 15_000 });
      expect(outcome.status).toBe("done");
      expect(outcome.status === "done" && ChatMessage.fromJSON(outcome.result.lastMessage).text).toBe("done 2 fence-0");
      // call-1 was in flight on the frozen worker and ran again on the other: twice, with one idempotency key.
      expect(await sideClient.mget(`side:${runId}:1:call-1`, `side:${runId}:2:call-2`)).toEqual(["2", "1"]);
      await stopWorkers([frozen]);
    } finally {
      admin.disconnect();
    }
  }, 60_000);

  it("loses nothing when Redis is SIGKILLed and restarted from its AOF (appendonly yes), and loses runs without it", async () => {
    const measured: Record<string, FaultCounts> = {};
    for (const appendOnly of [true, false]) {
      const name = appendOnly ? "kill-redis-aof" : "kill-redis-no-aof";
      const dir = mkdtempSync(path.join(tmpdir(), "toolwright-aof-"));
      dirs.push(dir);
      const redis = await redisFor({ appendOnly, dir });
      const queue = queueOn(redis, name);
      const started = await workersOn(redis, name, 2);
      const runIds = await startRuns(queue, name, runs, steps);
      await until(async () => (await callsMade(sideClient, name)) >= runs, "a quarter of the calls ran");
      await redis.signal("SIGKILL");
      servers.delete(redis);
      await sleep(300);
      const restarted = await redisFor({ appendOnly, dir, port: redis.port });

      measured[name] = await countFaults(queue, sideClient, runIds, steps, await recoverAll(queue));
      report(`Redis SIGKILL + restart ${appendOnly ? "with AOF" : "without persistence"}`, measured[name]!);
      // A worker whose Redis came back empty closes too (RunWorker.close is bounded by closeTimeoutMs).
      await stopWorkers(started);
      for (const worker of started) workers.delete(worker);
      await queue.close();
      queues.delete(queue);
      await restarted.stop();
      servers.delete(restarted);
    }
    expectNoHarm(measured["kill-redis-aof"]!);
    // Without persistence the restarted Redis is empty: every run not yet finished is gone.
    expect(measured["kill-redis-no-aof"]!.lost).toBeGreaterThan(0);
  }, 90_000);

  it("bounds the calls made while Redis is paused (SIGSTOP) and loses nothing once it continues", async () => {
    const name = "pause-redis";
    const redis = await redisFor();
    const queue = queueOn(redis, name);
    const started = await workersOn(redis, name, 2);
    const runIds = await startRuns(queue, name, runs, steps);
    await until(async () => (await callsMade(sideClient, name)) >= runs, "a quarter of the calls ran");
    await redis.signal("SIGSTOP");
    let refused: unknown;
    try {
      refused = await queue.result(runIds[0]!).then(
        () => undefined,
        (error: unknown) => error,
      );
      await sleep(1000);
    } finally {
      await redis.signal("SIGCONT");
    }
    expect(refused).toBeInstanceOf(RunWaitError);
    expect((refused as RunWaitError).message).toBe(`RunQueue.result of run '${runIds[0]}' got no answer from Redis at ${redis.host}:${redis.port} within 2000 ms (requestTimeoutMs); check that Redis is up and reachable, or give the RunQueue a longer requestTimeoutMs.`);

    const counts = await countFaults(queue, sideClient, runIds, steps, await recoverAll(queue));
    report("Redis SIGSTOP 3 s + SIGCONT", counts);
    expectNoHarm(counts);
    await stopWorkers(started);
  }, 60_000);

  it("keeps every worker process alive when Redis runs out of memory, and finishes every run after memory is freed and recover() runs", async () => {
    const name = "oom-redis";
    const redis = await redisFor();
    const admin = new Redis({ host: redis.host, port: redis.port });
    try {
      const queue = queueOn(redis, name);
      const started = await workersOn(redis, name, 2);
      const runIds = await startRuns(queue, name, runs, steps);
      await until(async () => (await callsMade(sideClient, name)) >= runs, "a quarter of the calls ran");
      await admin.config("SET", "maxmemory", "1");
      await until(() => started.every((worker) => worker.lines().some((line) => line.includes("OOM command not allowed"))), "both workers saw Redis refuse their writes");
      await sleep(1500); // past the steps' locks
      await admin.config("SET", "maxmemory", "0");

      const counts = await countFaults(queue, sideClient, runIds, steps, await recoverAll(queue));
      report("Redis out of memory (maxmemory 1, noeviction) for 1.5 s", counts);
      expectNoHarm(counts);
      await stopWorkers(started);
    } finally {
      admin.disconnect();
    }
  }, 60_000);

  it("starts no run twice when its start is retried after a RunWaitError", async () => {
    const name = "retry-start";
    const redis = await redisFor();
    const queue = queueOn(redis, name);
    await redis.signal("SIGSTOP");
    let first: unknown;
    try {
      first = await queue.start({ messages: [ChatMessage.fromUser("steps:1")] }, { runId: "retried", timeoutMs: 300 }).catch((error: unknown) => error);
    } finally {
      await redis.signal("SIGCONT");
    }
    expect(first).toBeInstanceOf(RunWaitError);
    // The create reached Redis before the call gave up: the retry with the same id finds it taken, and recover() queues its job.
    await expect(queue.start({ messages: [ChatMessage.fromUser("steps:1")] }, { runId: "retried" })).rejects.toThrow("RunQueue.start was given run id 'retried', which is already taken; use a new id, or follow the run with queue.events('retried').");
    expect(await recoverAll(queue)).toBe(1);
    const started = await workersOn(redis, name, 1);
    expect((await queue.result("retried", { timeoutMs: 10_000 })).status).toBe("done");
    await stopWorkers(started);
  }, 30_000);
});
