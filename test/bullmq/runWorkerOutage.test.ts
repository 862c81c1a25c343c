// A RunWorker while its Redis is down, never up, paused, or has lost its data: close() ends (and the
// process with it), and what the user sees on stderr is one RedisConnectionError per outage naming
// host:port, or one RedisDataLostError per lost job, never ioredis's or BullMQ's raw errors. The workers run in processes of their own (helpers/outageWorker.cjs
// against dist/), so that their real stderr is what is asserted.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { Agent, ChatMessage } from "toolwright";
import { RedisConnectionError, RunQueue, RunWorker, type RunEventEntry } from "toolwright/bullmq";
import { ScriptedChatGenerator } from "toolwright/testing";
import { startRedis, type RedisServer } from "../support/redisServer";

const script = path.join(__dirname, "helpers/outageWorker.cjs");

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly stdout: string[];
  stderr(): string;
  /** Resolves with the first stdout line matching `pattern` (now or later). */
  line(pattern: RegExp): Promise<string>;
  /** SIGTERM, then how the process ended by itself. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: WorkerProcess[] = [];
const servers: RedisServer[] = [];

afterEach(async () => {
  for (const worker of started.splice(0)) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function startWorker(env: Record<string, string | number>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) }, stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  let stderr = "";
  const waiting = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    stdout.push(line);
    for (const wait of waiting) if (wait.pattern.test(line)) (waiting.delete(wait), wait.resolve(line));
  });
  child.stderr!.on("data", (data: Buffer) => void (stderr += data.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const worker: WorkerProcess = {
    child,
    stdout,
    stderr: () => stderr,
    line: (pattern) => {
      const seen = stdout.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiting.add({ pattern, resolve });
        void exited.then(() => reject(new Error(`the worker exited before printing ${pattern}; stdout:\n${stdout.join("\n")}\nstderr:\n${stderr}`)));
      });
    },
    close: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
  started.push(worker);
  await worker.line(/^ready$/);
  return worker;
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function drain(iterable: AsyncIterable<RunEventEntry>): Promise<RunEventEntry[]> {
  const out: RunEventEntry[] = [];
  for await (const entry of iterable) out.push(entry);
  return out;
}

const unreachable = (queue: string, port: number, cause = `connect ECONNREFUSED 127.0.0.1:${port}`) =>
  `RedisConnectionError: RunWorker of queue '${queue}' cannot reach Redis at 127.0.0.1:${port} (${cause}); it takes no steps until Redis answers there again and then goes on by itself, so start Redis at that address or give the RunWorker the connection its RunQueue uses.\n`;

describe("RunWorker", () => {
  it("closes when Redis was never up, and prints one RedisConnectionError naming host:port instead of the connection errors", async () => {
    const port = await freePort();
    const worker = await startWorker({ REDIS_PORT: port, QUEUE_NAME: "never-up" });
    await until(() => worker.stderr() !== "", "the worker reported the outage");
    // ioredis retries the connection several times meanwhile: still one report.
    await sleep(1500);
    expect(await worker.close()).toEqual({ code: 0, signal: null });
    expect(worker.stdout).toEqual(["ready", "closed"]);
    expect(worker.stderr()).toBe(unreachable("never-up", port));
  });

  it("reports an outage to onError once, as a RedisConnectionError with the host:port and the connection error", async () => {
    const port = await freePort();
    const errors: Error[] = [];
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("hi")]), tools: [] });
    const worker = new RunWorker({ agent, connection: { host: "127.0.0.1", port }, name: "on-error", onError: (error) => void errors.push(error) });
    try {
      await until(() => errors.length > 0, "onError was called");
      await sleep(1000);
    } finally {
      await worker.close();
    }
    expect(errors).toHaveLength(1);
    const [error] = errors as [RedisConnectionError];
    expect(error).toBeInstanceOf(RedisConnectionError);
    expect(`${error.name}: ${error.message}\n`).toBe(unreachable("on-error", port));
    expect([error.redis, error.queueName, (error.cause as Error).message]).toEqual([`127.0.0.1:${port}`, "on-error", `connect ECONNREFUSED 127.0.0.1:${port}`]);
  });

  it("refuses an onError that is not a function and a closeTimeoutMs that is not a whole number of at least 1", () => {
    const agent = new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [] });
    const connection = { host: "127.0.0.1", port: 1 };
    expect(() => new RunWorker({ agent, connection, onError: "log" as never })).toThrow(`RunWorker has an onError that is not a function, got string "log"; give a function that reports the worker's errors, such as (error) => logger.error(error).`);
    expect(() => new RunWorker({ agent, connection, closeTimeoutMs: 0 })).toThrow("RunWorker has a closeTimeoutMs that is not a whole number of at least 1, got number 0.");
  });

  it("reports a Redis killed while it idles once, and takes the next run on the same worker once Redis is back on its port", async () => {
    const redis = await startRedis();
    servers.push(redis);
    const name = "killed";
    const worker = await startWorker({ REDIS_PORT: redis.port, QUEUE_NAME: name });
    const queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name });
    try {
      const before = await queue.start({ messages: [ChatMessage.fromUser("steps:1")] });
      expect((await queue.result(before, { timeoutMs: 15_000 })).status).toBe("done");
      // The run is done once its result is stored; BullMQ moves its job out of the active list just
      // after. Killed in between, the restarted (empty) Redis has no key for that move, and BullMQ's
      // "Missing key for job …" would be reported too: the outage under test is the idle one.
      const inspector = new Redis({ host: redis.host, port: redis.port, maxRetriesPerRequest: 1 });
      try {
        await until(async () => (await inspector.llen(`toolwright:${name}:active`)) === 0, "BullMQ moved the finished job out of active");
      } finally {
        inspector.disconnect();
      }

      await redis.signal("SIGKILL");
      servers.splice(servers.indexOf(redis), 1);
      await until(() => worker.stderr() !== "", "the worker reported the outage");
      await sleep(1500);
      servers.push(await startRedis({ port: redis.port }));

      const after = await queue.start({ messages: [ChatMessage.fromUser("steps:1")] });
      const outcome = await queue.result(after, { timeoutMs: 30_000 });
      expect(outcome.status).toBe("done");
      expect(JSON.stringify(outcome)).toContain(`worker ${worker.child.pid}`);
      expect(await worker.close()).toEqual({ code: 0, signal: null });
      // The first error of the outage: the connection Redis's death reset, or the first reconnection refused.
      expect([unreachable(name, redis.port, "read ECONNRESET"), unreachable(name, redis.port)]).toContain(worker.stderr());
    } finally {
      await queue.close();
    }
  }, 60_000);

  it("reports a job whose data Redis lost mid-step once, as a RedisDataLostError naming the job, the run and the fix", async () => {
    const redis = await startRedis();
    servers.push(redis);
    const name = "lost";
    const worker = await startWorker({ REDIS_PORT: redis.port, QUEUE_NAME: name, TOOL_DELAY_MS: 1000 });
    const queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name });
    const flusher = new Redis({ host: redis.host, port: redis.port, maxRetriesPerRequest: 1 });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("steps:1")] });
      await worker.line(/^called /);
      await flusher.flushall();
      // BullMQ fails both its moves of the job (to finished, then to delayed): one report.
      await until(() => worker.stderr() !== "", "the worker reported the lost job");
      await sleep(1500);
      expect(await worker.close()).toEqual({ code: 0, signal: null });
      expect(worker.stderr()).toBe(
        `RedisDataLostError: RunWorker of queue '${name}' found no job ${runId}.leg0 in Redis at 127.0.0.1:${redis.port}: Redis lost the queue's data (a restart without persistence, a FLUSHALL, an evicted key), and run ${runId} with it. Run Redis with persistence (appendonly yes) and maxmemory-policy noeviction.\n`,
      );
    } finally {
      flusher.disconnect();
      await queue.close();
    }
  }, 30_000);

  it("closes within closeTimeoutMs while Redis is paused (SIGSTOP) with a step in flight, and the step stays claimable for another worker", async () => {
    const redis = await startRedis();
    servers.push(redis);
    const name = "paused";
    const first = await startWorker({ REDIS_PORT: redis.port, QUEUE_NAME: name, CLOSE_TIMEOUT_MS: 1000, LOCK_MS: 1000, TOOL_DELAY_MS: 60_000 });
    const queue = new RunQueue({ connection: { host: redis.host, port: redis.port }, name });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("steps:1")] });
      await first.line(/^called /);
      await redis.signal("SIGSTOP");
      try {
        // Without the bound this close waits for Redis, for as long as it stays paused.
        expect(await first.close()).toEqual({ code: 0, signal: null });
      } finally {
        await redis.signal("SIGCONT");
      }
      expect(first.stdout).toEqual(["ready", `called ${runId}:1:call-1`, "closed"]);
      expect(first.stderr()).toBe("");

      const second = await startWorker({ REDIS_PORT: redis.port, QUEUE_NAME: name, LOCK_MS: 1000 });
      const outcome = await queue.result(runId, { timeoutMs: 30_000 });
      expect(outcome.status).toBe("done");
      expect(JSON.stringify(outcome)).toContain(`worker ${second.child.pid}`);
      expect((await drain(queue.events(runId))).map(({ event }) => event.type)).toContain("recovered");
      expect(await second.close()).toEqual({ code: 0, signal: null });
      expect(second.stderr()).toBe("");
    } finally {
      await queue.close();
    }
  }, 60_000);
});
