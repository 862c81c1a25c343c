import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { RunQueue, RunWorker } from "toolwright/bullmq";
import { fmt, median, timeRuns } from "../measure";
import { scriptedAgent } from "./benchChild";
import { startRedis, type RedisServer } from "./redis";

/** Tool calls of a checkpoint-cost run; the run has one step more (the model's text answer). */
const longRunCalls = 200;
/** Runs of the throughput figure, after `warmupRuns` unmeasured ones. */
const throughputRuns = 1000;
const warmupRuns = 1000;
/** Measured batches of `throughputRuns` per worker count; the median is reported. */
const throughputBatches = 3;
/** Worker processes of the throughput figures, each a RunWorker with this concurrency. */
const workerCounts = [1, 2, 4] as const;
const workerConcurrency = 8;
/** Runs started one at a time for the latency figures, after `latencyWarmups` unmeasured ones. */
const latencyRuns = 100;
const latencyWarmups = 10;

const childScript = path.join(__dirname, "benchChild.js");
const goInput = () => ({ messages: [ChatMessage.fromUser("go")] });

/**
 * What running an Agent's runs across processes costs (issue #12): the checkpoint per step, in
 * process and through RunQueue + RunWorker, with the Redis commands a step sends; runs per second
 * with 1, 2 and 4 worker processes; and the latency from `start` to the first event. On a
 * redis-server of its own, started on a free port and stopped at the end.
 */
export async function benchCluster(log: (line: string) => void = console.log): Promise<void> {
  const server = await startRedis();
  const admin = new Redis({ host: server.host, port: server.port, maxRetriesPerRequest: null });
  try {
    await checkpointCost(server, admin, log);
    await throughput(server, admin, log);
    await latency(server, log);
  } finally {
    admin.disconnect();
    await server.stop();
  }
}

// ---- 1. checkpoint cost per step -------------------------------------------------------------

async function checkpointCost(server: RedisServer, admin: Redis, log: (line: string) => void): Promise<void> {
  const steps = longRunCalls + 1;
  const label = `cluster checkpoint, ${longRunCalls}-call runs (${steps} steps)`;
  const agent = scriptedAgent(longRunCalls);
  const usPerStep = async (run: () => Promise<unknown>, repeats: number, warmups: number) => (median(await timeRuns(run, repeats, warmups)) * 1000) / steps;

  const checkRun = (result: { stepCount: number; exitReason: string }) => {
    if (result.stepCount !== steps || result.exitReason !== "text") throw new Error(`a checkpoint-cost run ended with ${result.exitReason} after ${result.stepCount} steps, not text after ${steps}`);
  };
  const plain = await usPerStep(async () => checkRun(await agent.run(goInput())), 15, 5);
  log(`${label}, in process, no onCheckpoint: ${fmt(plain, 1)} µs per step`);

  const builtOnly = await usPerStep(async () => checkRun(await agent.run({ ...goInput(), onCheckpoint: () => {} })), 15, 5);
  log(`${label}, in process, onCheckpoint () => {} (the snapshots built, nothing done with them): ${fmt(builtOnly, 1)} µs per step (+${fmt(builtOnly - plain, 1)})`);

  let lastBytes = 0;
  let totalBytes = 0;
  const stringifyOnly = await usPerStep(
    async () => {
      totalBytes = 0;
      checkRun(
        await agent.run({
          ...goInput(),
          onCheckpoint: (snapshot) => {
            lastBytes = JSON.stringify(snapshot).length;
            totalBytes += lastBytes;
          },
        }),
      );
    },
    15,
    5,
  );
  log(`${label}, in process, onCheckpoint JSON.stringify only: ${fmt(stringifyOnly, 1)} µs per step (+${fmt(stringifyOnly - builtOnly, 1)} over building them; ${2 * longRunCalls} checkpoints, the last ${fmt(lastBytes / 1024, 1)} KiB, ${fmt(totalBytes / 2 ** 20, 1)} MiB in all)`);

  const key = "bench:checkpoint";
  const withHset = await usPerStep(
    async () =>
      checkRun(
        await agent.run({
          ...goInput(),
          onCheckpoint: async (snapshot) => {
            await admin.hset(key, "checkpoint", JSON.stringify(snapshot));
          },
        }),
      ),
    15,
    5,
  );
  log(`${label}, in process, onCheckpoint JSON.stringify + HSET: ${fmt(withHset, 1)} µs per step (+${fmt(withHset - plain, 1)} over no onCheckpoint)`);

  const connection = { host: server.host, port: server.port };
  const name = "checkpoint";
  const queue = new RunQueue({ connection, name });
  const worker = new RunWorker({ agent, connection, name });
  try {
    await worker.bullWorker.waitUntilReady();
    const runOnce = async () => {
      const runId = await queue.start(goInput());
      const outcome = await queue.result(runId);
      if (outcome.status !== "done") throw new Error(`a queued checkpoint-cost run ended ${outcome.status}: ${JSON.stringify(outcome)}`);
      checkRun(outcome.result);
    };
    const queued = await usPerStep(runOnce, 5, 1);
    log(`${label}, RunQueue + one RunWorker in this process: ${fmt(queued, 1)} µs per step (start to result)`);

    // One more run, counted: INFO commandstats before and after (every command Redis executed,
    // those inside Lua scripts too), and MONITOR to tell what clients sent from what scripts ran.
    const before = await commandStats(admin);
    const monitored = await monitorCommands(admin, runOnce);
    const after = await commandStats(admin);
    const executed = diffStats(before, after);
    const total = sum(executed.values());
    log(`${label}, Redis commands per step (INFO commandstats, through RunQueue + RunWorker): ${fmt(total / steps, 1)} executed — ${topCounts(executed, steps)}`);
    const sent = sum(monitored.sent.values());
    log(`${label}, commands clients sent per step (MONITOR; ≈ round trips, MULTI/EXEC counted per command): ${fmt(sent / steps, 1)} — ${topCounts(monitored.sent, steps)}`);
    log(`${label}, commands run inside Lua scripts per step: ${fmt(sum(monitored.inLua.values()) / steps, 1)} — ${topCounts(monitored.inLua, steps)}`);
  } finally {
    await Promise.all([queue.close(), worker.close()]);
  }
  // The same through the queue with short runs: what a step costs whatever the history's length.
  const short = await queuedUsPerStep(connection, shortCalls);
  const shortPlain = (median(await timeRuns(() => scriptedAgent(shortCalls).run(goInput()), 50, 20)) * 1000) / (shortCalls + 1);
  log(`cluster checkpoint, ${shortCalls}-call runs (${shortCalls + 1} steps), RunQueue + one RunWorker in this process: ${fmt(short, 1)} µs per step (in process, no onCheckpoint: ${fmt(shortPlain, 1)})`);
}

/** Tool calls of the short runs measured through the queue, to set against the long ones. */
const shortCalls = 10;

async function queuedUsPerStep(connection: { host: string; port: number }, calls: number): Promise<number> {
  const name = `checkpoint-${calls}`;
  const queue = new RunQueue({ connection, name });
  const worker = new RunWorker({ agent: scriptedAgent(calls), connection, name });
  try {
    await worker.bullWorker.waitUntilReady();
    const times = await timeRuns(
      async () => {
        const outcome = await queue.result(await queue.start(goInput()));
        if (outcome.status !== "done" || outcome.result.stepCount !== calls + 1) throw new Error(`a queued ${calls}-call run ended ${JSON.stringify(outcome).slice(0, 300)}`);
      },
      30,
      10,
    );
    return (median(times) * 1000) / (calls + 1);
  } finally {
    await Promise.all([queue.close(), worker.close()]);
  }
}

async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const text = await redis.info("commandstats");
  const calls = new Map<string, number>();
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return calls;
}

function diffStats(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const diff = new Map<string, number>();
  for (const [name, calls] of after) {
    if (name === "info" || name === "monitor") continue;
    const n = calls - (before.get(name) ?? 0);
    if (n > 0) diff.set(name, n);
  }
  return diff;
}

// Runs `fn` under MONITOR: the commands clients sent (evalsha named by script) and those Lua scripts ran.
async function monitorCommands(admin: Redis, fn: () => Promise<void>): Promise<{ sent: Map<string, number>; inLua: Map<string, number> }> {
  const bullmqScripts = bullmqScriptNames();
  const sent = new Map<string, number>();
  const inLua = new Map<string, number>();
  const monitor = await admin.monitor();
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    const command = args[0]!.toLowerCase();
    if (command === "info" || command === "monitor") return;
    if (source === "lua") return void bump(inLua, command);
    bump(sent, command === "evalsha" || command === "eval" ? scriptLabel(args, bullmqScripts) : command);
  });
  try {
    await fn();
    // MONITOR lines come on their own connection, a little after the commands.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    monitor.disconnect();
  }
  return { sent, inLua };
}

// BullMQ's Lua scripts by their SHA1 (what EVALSHA names them by): ioredis sends a script by the
// SHA1 of its text, and BullMQ defines its commands from the texts in its dist/cjs/scripts.
function bullmqScriptNames(): Map<string, string> {
  const dir = path.join(path.dirname(require.resolve("bullmq")), "scripts");
  const scripts = require(path.join(dir, "index.js")) as Record<string, { name: string; content: string }>;
  const names = new Map<string, string>();
  for (const script of Object.values(scripts)) names.set(createHash("sha1").update(script.content).digest("hex"), `bullmq ${script.name}`);
  return names;
}

// A script by BullMQ's name for it, else toolwright's by its keys and arguments.
function scriptLabel(args: string[], bullmq: Map<string, string>): string {
  const known = bullmq.get(args[1]!);
  if (known) return `evalsha ${known}`;
  const keys = Number(args[2]);
  const argv = args.length - 3 - keys;
  if (keys === 1) return argv === 1 ? "evalsha toolwright checkpoint" : "evalsha toolwright create";
  return argv >= 4 && args[3 + keys + 1]?.startsWith("{") ? "evalsha toolwright finish" : "evalsha toolwright (2 keys)";
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

function topCounts(counts: Map<string, number>, steps: number, shown = 10): string {
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const parts = sorted.slice(0, shown).map(([name, n]) => `${name} ${fmt(n / steps, 2)}`);
  const rest = sum(sorted.slice(shown).map(([, n]) => n));
  if (rest > 0) parts.push(`other ${fmt(rest / steps, 2)}`);
  return parts.join(", ");
}

// ---- 2. throughput and latency with worker processes ------------------------------------------

interface WorkerProcess {
  readonly child: ChildProcess;
  /** CPU time (user + system) the process has used so far, in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

async function startWorkerProcess(server: RedisServer, name: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [childScript, server.host, String(server.port), name, String(workerConcurrency)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline: number;
    while ((newline = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const nextLine = (what: string) =>
    new Promise<string>((resolve, reject) => {
      const line = lines.shift();
      if (line !== undefined) return resolve(line);
      const timer = setTimeout(() => reject(new Error(`worker process ${child.pid} printed no ${what} within 20 s`)), 20_000);
      void exited.then((code) => reject(new Error(`worker process ${child.pid} exited with ${code} before it printed ${what}`)));
      waiters.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
    });
  const ready = await nextLine("'ready'");
  if (ready !== "ready") throw new Error(`worker process ${child.pid} printed '${ready}', not 'ready'`);
  return {
    child,
    cpuMs: async () => {
      child.stdin!.write("cpu\n");
      return Number((await nextLine("its CPU time")).replace(/^cpu /, ""));
    },
    stop: async () => {
      child.stdin!.end();
      const code = await exited;
      if (code !== 0) throw new Error(`worker process ${child.pid} exited with ${code}`);
    },
  };
}

async function redisCpuMs(admin: Redis): Promise<number> {
  const text = await admin.info("cpu");
  const read = (field: string) => Number(new RegExp(`^${field}:([\\d.]+)`, "m").exec(text)?.[1] ?? Number.NaN);
  return (read("used_cpu_user") + read("used_cpu_sys")) * 1000;
}

function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

// Starts `runs` runs at once and waits until BullMQ holds no job of the queue (a run's job goes back
// to the queue between its steps, and is removed when its last step completes); then checks that
// every run is done. Resolves with the wall time in ms.
async function runBatch(queue: RunQueue, admin: Redis, name: string, runs: number): Promise<number> {
  const start = performance.now();
  const ids = await Promise.all(Array.from({ length: runs }, () => queue.start(goInput())));
  for (;;) {
    const counts = await queue.bullQueue.getJobCounts("active", "waiting", "delayed", "prioritized");
    if (sum(Object.values(counts)) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const wallMs = performance.now() - start;
  const pipeline = admin.pipeline();
  for (const id of ids) pipeline.hget(`toolwright:${name}:run:${id}`, "status");
  const statuses = (await pipeline.exec())!.map(([, status]) => status);
  const notDone = statuses.filter((status) => status !== "done");
  if (notDone.length > 0) throw new Error(`${notDone.length} of ${runs} throughput runs did not end done: ${[...new Set(notDone)].join(", ")}`);
  return wallMs;
}

async function throughput(server: RedisServer, admin: Redis, log: (line: string) => void): Promise<void> {
  const connection = { host: server.host, port: server.port };
  for (const count of workerCounts) {
    const name = `throughput-${count}`;
    const workers: WorkerProcess[] = [];
    const queue = new RunQueue({ connection, name });
    try {
      for (let i = 0; i < count; i++) workers.push(await startWorkerProcess(server, name));
      await runBatch(queue, admin, name, warmupRuns);
      const cpuBefore = { workers: sum(await Promise.all(workers.map((w) => w.cpuMs()))), redis: await redisCpuMs(admin), client: ownCpuMs() };
      const rates: number[] = [];
      for (let i = 0; i < throughputBatches; i++) rates.push((throughputRuns * 1000) / (await runBatch(queue, admin, name, throughputRuns)));
      const cpuAfter = { workers: sum(await Promise.all(workers.map((w) => w.cpuMs()))), redis: await redisCpuMs(admin), client: ownCpuMs() };
      const perRun = (k: keyof typeof cpuBefore) => fmt(((cpuAfter[k] - cpuBefore[k]) * 1000) / (throughputRuns * throughputBatches), 0);
      log(
        `cluster throughput, ${throughputRuns.toLocaleString("en-US")} runs of 2 steps started at once, ${count} worker process${count === 1 ? "" : "es"} × concurrency ${workerConcurrency}: ` +
          `${fmt(median(rates), 0)} runs/s (median of ${throughputBatches} batches, ${fmt(Math.min(...rates), 0)}–${fmt(Math.max(...rates), 0)}; CPU per run: workers ${perRun("workers")} µs, redis-server ${perRun("redis")} µs, the starting process ${perRun("client")} µs)`,
      );
    } finally {
      await queue.close();
      for (const worker of workers) await worker.stop();
    }
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

async function latency(server: RedisServer, log: (line: string) => void): Promise<void> {
  const name = "latency";
  const queue = new RunQueue({ connection: { host: server.host, port: server.port }, name });
  const worker = await startWorkerProcess(server, name);
  try {
    const startMs: number[] = [];
    const firstEventMs: number[] = [];
    const runMs: number[] = [];
    for (let i = 0; i < latencyWarmups + latencyRuns; i++) {
      const t0 = performance.now();
      const runId = await queue.start(goInput());
      const t1 = performance.now();
      let first: number | undefined;
      let last: string | undefined;
      for await (const { event } of queue.events(runId)) {
        first ??= performance.now();
        last = event.type;
      }
      const t2 = performance.now();
      if (last !== "result") throw new Error(`a latency run's events ended with '${last}', not 'result'`);
      if (i < latencyWarmups) continue;
      startMs.push(t1 - t0);
      firstEventMs.push(first! - t0);
      runMs.push(t2 - t0);
    }
    const figure = (values: number[]) => `median ${fmt(median(values), 2)} ms, p95 ${fmt(percentile(values, 0.95), 2)} ms`;
    log(`cluster latency, ${latencyRuns} runs of 2 steps started one at a time, one worker process: start to first event ${figure(firstEventMs)}`);
    log(`cluster latency, the same runs: start() alone ${figure(startMs)}; start to the 'result' event (whole run) ${figure(runMs)}`);
  } finally {
    await queue.close();
    await worker.stop();
  }
}
