// The run store's Lua scripts on a real redis-server: each attempt at a step is fenced by its BullMQ
// lock token, and records of runs that nothing continues expire.
import { Redis } from "ioredis";
import { ChatMessage } from "toolwright";
import { RunQueue } from "toolwright/bullmq";
import type { AgentSnapshot } from "../../src/agent/snapshot";
import { RunStore } from "../../src/bullmq/runStore";
import { startRedis, type RedisServer } from "../support/redisServer";

let redis: RedisServer;
let side: Redis;
beforeAll(async () => {
  redis = await startRedis();
  side = new Redis({ host: redis.host, port: redis.port });
});
afterAll(async () => {
  side?.disconnect();
  await redis?.stop();
});

let names = 0;
async function queued(options: { activeTtlMs?: number } = {}) {
  const name = `store${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const queue = new RunQueue({ connection, name, ...options });
  const store = new RunStore({ connection, name, ...options }, "RunWorker");
  const runId = await queue.start({ messages: [ChatMessage.fromUser("hi")] }, { runId: "r1" });
  // Only the store is used from here on: the leg's job waits in BullMQ with no worker to take it.
  return { queue, store, runId, record: `toolwright:${name}:run:${runId}`, events: `toolwright:${name}:run:${runId}:events`, close: () => Promise.all([queue.close(), store.close()]) };
}

const snapshot = { stepCount: 1 } as unknown as AgentSnapshot;

describe("RunStore", () => {
  it("refuses every write of an attempt whose step another attempt took (a worker frozen past its lock)", async () => {
    const { store, runId, record, close } = await queued();
    try {
      expect(await store.claim(runId, "stale:1", 0)).toBe("queued");
      expect(await store.append(runId, "stale:1", { type: "text", delta: "a" })).toBe(true);
      // BullMQ found the lock expired and gave the job to another worker, which took the step.
      expect(await store.claim(runId, "fresh:1", 0)).toBe("running");

      expect(await store.append(runId, "stale:1", { type: "text", delta: "late" })).toBe(false);
      expect(await store.checkpoint(runId, "stale:1", snapshot)).toBe("lost");
      expect(await store.release(runId, "stale:1")).toBe(false);
      expect(await store.finish(runId, { token: "stale:1" }, { status: "cancelled" }, { type: "cancelled" })).toBe(false);
      expect(await side.hmget(record, "status", "owner", "checkpoint")).toEqual(["running", "fresh:1", null]);

      expect(await store.checkpoint(runId, "fresh:1", snapshot)).toBe("ok");
      expect(await store.release(runId, "fresh:1")).toBe(true);
      expect(await store.claim(runId, "fresh:2", 0)).toBe("queued");
      expect(await store.finish(runId, { token: "fresh:2" }, { status: "failed", error: { name: "Error", message: "x" } }, { type: "failed", error: { name: "Error", message: "x" } })).toBe(true);
      expect(await side.hmget(record, "status", "owner")).toEqual(["failed", null]);
      expect((await store.read(runId))?.checkpoint).toEqual(snapshot);
    } finally {
      await close();
    }
  });

  it("tells a cancel request apart from a lost step, and ends the run cancelled only for its owner", async () => {
    const { queue, store, runId, record, close } = await queued();
    try {
      await store.claim(runId, "w:1", 0);
      expect(await queue.cancel(runId)).toBe("running");
      expect(await store.checkpoint(runId, "w:1", snapshot)).toBe("cancelled");
      expect(await store.checkpoint(runId, "other:1", snapshot)).toBe("lost");
      expect(await store.finish(runId, { token: "w:1" }, { status: "done", result: {} as never }, { type: "cancelled" })).toBe(true);
      expect(await side.hget(record, "status")).toBe("cancelled");
    } finally {
      await close();
    }
  });

  it("ends a run for a job BullMQ gave up on only when the job is of the run's current leg", async () => {
    const { store, runId, record, close } = await queued();
    try {
      const failure = { name: "Error", message: "gone" };
      expect(await store.finish(runId, { leg: 1 }, { status: "failed", error: failure }, { type: "failed", error: failure })).toBe(false);
      expect(await store.claim(runId, "w:1", 1)).toBe("stale");
      expect(await side.hget(record, "status")).toBe("queued");
      expect(await store.finish(runId, { leg: 0 }, { status: "failed", error: failure }, { type: "failed", error: failure })).toBe(true);
      expect(await side.hget(record, "status")).toBe("failed");
    } finally {
      await close();
    }
  });

  it("gives a queued or running run's record and events the time to live activeTtlMs, renewed as it goes on", async () => {
    const { store, runId, record, events, close } = await queued({ activeTtlMs: 60_000 });
    try {
      expect(await side.pttl(record)).toBeGreaterThan(50_000);
      await side.pexpire(record, 30_000);
      await store.claim(runId, "w:1", 0);
      expect(await side.pttl(record)).toBeGreaterThan(50_000);
      await store.append(runId, "w:1", { type: "text", delta: "a" });
      expect(await side.pttl(events)).toBeGreaterThan(50_000);
      await Promise.all([side.pexpire(record, 1000), side.pexpire(events, 1000)]);
      expect(await store.checkpoint(runId, "w:1", snapshot)).toBe("ok");
      expect([await side.pttl(record), await side.pttl(events)].every((ttl) => ttl > 50_000)).toBe(true);
    } finally {
      await close();
    }
  });

  it("forgets a run in limbo (running, its worker and job gone) after activeTtlMs", async () => {
    const { queue, store, runId, close } = await queued({ activeTtlMs: 1000 });
    try {
      await store.claim(runId, "w:1", 0);
      await store.append(runId, "w:1", { type: "text", delta: "a" });
      await new Promise((resolve) => setTimeout(resolve, 1300));
      await expect(queue.result(runId)).rejects.toThrow(`RunQueue.result: there is no run '${runId}'; it was never started, or it ended, stayed paused or made no progress longer than its time to live (finishedTtlMs, pausedTtlMs, activeTtlMs).`);
      expect(await side.exists(`toolwright:store${names}:run:${runId}:events`)).toBe(0);
    } finally {
      await close();
    }
  });
});
