// What every fault test of toolwright/bullmq shares: a Redis for the runs (the one the faults hit), a
// side Redis that counts each tool call's side effect (never faulted), worker processes, and the
// counts each test asserts: runs lost, runs stuck, completed steps run twice, cancellations nobody
// asked for.
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { RunNotFoundError, RunQueue, RunWaitError, type RunEventEntry } from "toolwright/bullmq";
import { startProcess, type RunningProcess } from "../support/childProcess";
import type { RedisServer } from "../support/redisServer";

const workerScript = path.join(__dirname, "../../dist/bench/cluster/workerProcess.js");

/** What a fault test counts; all but `inFlightCallsRunAgain` and `recovered` must be 0. */
export interface FaultCounts {
  runs: number;
  done: number;
  /** Runs whose record is gone (RunNotFoundError) before they finished. */
  lost: number;
  /** Runs still queued or running when the test stopped waiting. */
  stuck: number;
  /** Runs that ended failed. */
  failed: number;
  /** Runs that ended cancelled: the tests never cancel. */
  unaskedCancellations: number;
  /** Tool calls of completed steps that ran again (a call counted twice with no restart of its step). */
  completedStepsRunTwice: number;
  /** Tool calls in flight at a fault that ran again, with the same idempotency key (documented). */
  inFlightCallsRunAgain: number;
  /** `recovered` events: steps that started again after a lost worker or a failed write. */
  recovered: number;
  /** Runs `queue.recover()` continued after the fault. */
  continuedByRecover: number;
}

/** Starts a RunWorker process (dist/bench/cluster/workerProcess.js) and resolves once it is ready. */
export function startWorker(redis: RedisServer, side: RedisServer, name: string, env: Record<string, number | string> = {}): Promise<RunningProcess> {
  const settings = { CONCURRENCY: 4, LOCK_MS: 1000, TOOL_DELAY_MS: 60, ...env };
  return startProcess(
    `worker of ${name}`,
    workerScript,
    { REDIS_PORT: String(redis.port), SIDE_PORT: String(side.port), QUEUE_NAME: name, ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, String(v)])) },
    /^worker (\S+)$/,
  );
}

/** Starts `count` runs of `steps` steps, named `<name>-<i>`. */
export async function startRuns(queue: RunQueue, name: string, count: number, steps: number): Promise<string[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => queue.start({ messages: [ChatMessage.fromUser(`steps:${steps} tag:${name}-${i}`)] }, { runId: `${name}-${i}` })));
}

/** Resolves once `condition` holds (checked every 25 ms), or rejects after `ms`. */
export async function until(condition: () => Promise<boolean> | boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`timed out after ${ms} ms waiting until ${what}`);
}

/** How many distinct tool calls of the runs named `<name>-*` ran so far (keys in the side store). */
export async function callsMade(sideClient: Redis, name: string): Promise<number> {
  let cursor = "0";
  let count = 0;
  do {
    const [next, keys] = await sideClient.scan(cursor, "MATCH", `side:${name}-*`, "COUNT", 1000);
    cursor = next;
    count += keys.length;
  } while (cursor !== "0");
  return count;
}

/** How many step locks of queue `name` the BullMQ worker `workerId` holds now (its lock tokens start with its id). */
export async function locksHeldBy(client: Redis, name: string, workerId: string): Promise<number> {
  let cursor = "0";
  let held = 0;
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `toolwright:${name}:*:lock`, "COUNT", 1000);
    cursor = next;
    if (keys.length > 0) held += (await client.mget(...keys)).filter((token) => token?.startsWith(`${workerId}:`)).length;
  } while (cursor !== "0");
  return held;
}

/**
 * Waits for every run's end (each at most `waitMs`, Redis outages tolerated), then counts. A call
 * that ran twice is in flight at a restart when its run's stream has a `recovered` event whose
 * checkpoint was taken before the call's step completed (stepCount n - 1 or n for the call of step n).
 */
export async function countFaults(queue: RunQueue, sideClient: Redis, runIds: readonly string[], steps: number, continuedByRecover: number, waitMs = 20_000): Promise<FaultCounts> {
  const counts: FaultCounts = { runs: runIds.length, done: 0, lost: 0, stuck: 0, failed: 0, unaskedCancellations: 0, completedStepsRunTwice: 0, inFlightCallsRunAgain: 0, recovered: 0, continuedByRecover };
  const end = Date.now() + waitMs;
  for (const runId of runIds) {
    let status: string;
    for (;;) {
      try {
        const outcome = await queue.result(runId, { timeoutMs: Math.max(1, end - Date.now()) });
        status = outcome.status;
        if (outcome.status === "done" && ChatMessage.fromJSON(outcome.result.lastMessage).text !== `done ${steps} ${runId}`) status = "wrong";
      } catch (error) {
        if (error instanceof RunNotFoundError) status = "lost";
        else if (error instanceof RunWaitError && error.reason === "unanswered" && Date.now() < end) continue;
        else if (error instanceof RunWaitError) status = "stuck";
        else throw error;
      }
      break;
    }
    if (status === "done") counts.done++;
    else if (status === "lost") counts.lost++;
    else if (status === "stuck") counts.stuck++;
    else if (status === "cancelled") counts.unaskedCancellations++;
    else counts.failed++;
    if (status === "lost") continue;

    const events: RunEventEntry[] = [];
    for (;;) {
      let last: RunEventEntry | undefined;
      for await (const entry of queue.events(runId, { after: events.at(-1)?.id ?? "0" })) {
        events.push(entry);
        last = entry;
      }
      if (last === undefined || last.event.type !== "paused") break;
    }
    const restarts = events.flatMap(({ event }) => (event.type === "recovered" ? [event.stepCount] : []));
    counts.recovered += restarts.length;
    const values = await sideClient.mget(...Array.from({ length: steps }, (_, i) => `side:${runId}:${i + 1}:call-${i + 1}`));
    for (const [i, value] of values.entries()) {
      const again = Number(value ?? 0) - 1;
      if (again <= 0) continue;
      const step = i + 1;
      const inFlight = restarts.filter((stepCount) => stepCount === step - 1 || stepCount === step).length;
      counts.inFlightCallsRunAgain += Math.min(again, inFlight);
      counts.completedStepsRunTwice += Math.max(0, again - inFlight);
    }
  }
  return counts;
}

/** Prints a fault test's counts (they go to the README's Operations section and BENCHMARKS.md). */
export function report(scenario: string, counts: FaultCounts): void {
  process.stdout.write(`fault ${scenario}: ${JSON.stringify(counts)}\n`);
}

/** SIGTERMs the worker processes and checks that each was alive until then and closed cleanly. */
export async function stopWorkers(workers: readonly RunningProcess[]): Promise<void> {
  for (const worker of workers) {
    expect({ name: worker.name, alive: worker.child.exitCode === null && worker.child.signalCode === null }).toEqual({ name: worker.name, alive: true });
    const exit = await Promise.race([worker.stop(), sleep(15_000).then(() => `${worker.name} did not close within 15 s of SIGTERM:\n${worker.lines().slice(-20).join("\n")}`)]);
    const crashes = worker.lines().filter((line) => /unhandled|uncaught/i.test(line));
    expect({ exit, crashes }).toEqual({ exit: { code: 0, signal: null }, crashes: [] });
  }
}

/** Ends what a fault test left running: SIGKILLs the worker processes still alive and closes the queues; both sets are emptied. */
export async function endAll(workers: Set<RunningProcess>, queues: Set<RunQueue>): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
  await Promise.all([...workers].map((worker) => worker.stop()));
  workers.clear();
  await Promise.all([...queues].map((queue) => queue.close().catch(() => undefined)));
  queues.clear();
}
