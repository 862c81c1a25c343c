// A RunWorker whose Redis refuses writes (maxmemory reached with noeviction, as the README requires):
// the refused writes fail the step, never the process, and every run finishes once memory is freed.
import { Redis } from "ioredis";
import { Agent, ChatMessage, Tool } from "toolwright";
import { RunQueue, RunWorker, type RunEventEntry } from "toolwright/bullmq";
import { z } from "zod";
import { CountingModel } from "../../bench/cluster/countingModel";
import { startRedis, type RedisServer } from "../support/redisServer";

let redis: RedisServer;
let admin: Redis;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis({ host: redis.host, port: redis.port });
  await admin.config("SET", "maxmemory-policy", "noeviction");
  process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  admin?.disconnect();
  await redis?.stop();
});

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe("RunWorker", () => {
  it("survives Redis refusing its writes mid-step (out of memory): the steps fail and are retried, nothing is unhandled, every run finishes", async () => {
    const connection = { host: redis.host, port: redis.port };
    const name = "oom";
    const runs = 4;
    const executions = new Map<string, number>();
    let gate!: () => void;
    const opened = new Promise<void>((resolve) => (gate = resolve));
    let waiting = 0;
    const record = new Tool({
      name: "record",
      description: "Record step n.",
      parameters: z.object({ n: z.number() }),
      function: async ({ n }, context) => {
        executions.set(context.idempotencyKey, (executions.get(context.idempotencyKey) ?? 0) + 1);
        // Every run's second step waits here until Redis is out of memory.
        if (n === 2) {
          waiting++;
          await opened;
        }
        return n;
      },
    });
    const agent = new Agent({ chatGenerator: new CountingModel(), tools: [record] });
    const queue = new RunQueue({ connection, name });
    // BullMQ's errors other than the connection's reach onError as they come.
    const errors: string[] = [];
    const worker = new RunWorker({ agent, connection, name, concurrency: runs, lockDurationMs: 1000, stalledIntervalMs: 500, onError: (error) => void errors.push(error.message) });
    try {
      const runIds = await Promise.all(Array.from({ length: runs }, (_, i) => queue.start({ messages: [ChatMessage.fromUser("steps:3")] }, { runId: `oom-${i}` })));
      await until(() => waiting === runs, "every run is inside its second step");

      await admin.config("SET", "maxmemory", "1");
      gate();
      // The tool results' stream appends and the checkpoints are refused; BullMQ cannot even record the failures.
      await until(() => errors.some((message) => message.startsWith("OOM command not allowed")), "BullMQ reports Redis refusing its writes");
      await new Promise((resolve) => setTimeout(resolve, 1500)); // past the steps' locks
      await admin.config("SET", "maxmemory", "0");

      await queue.recover();
      const outcomes = await Promise.all(runIds.map((runId) => queue.result(runId, { timeoutMs: 15_000 })));
      expect(outcomes.map((outcome) => outcome.status === "done" && ChatMessage.fromJSON(outcome.result.lastMessage).text)).toEqual(runIds.map(() => "done 3"));
      expect(unhandled).toEqual([]);

      // Completed steps ran once; the step in flight when Redis refused its writes ran again, with the same key.
      const expected: Record<string, number> = {};
      for (const runId of runIds) Object.assign(expected, { [`${runId}:1:call-1`]: 1, [`${runId}:2:call-2`]: 2, [`${runId}:3:call-3`]: 1 });
      expect(Object.fromEntries(executions)).toEqual(expected);
      for (const runId of runIds) {
        const events: RunEventEntry[] = [];
        for await (const entry of queue.events(runId)) events.push(entry);
        expect(events.filter(({ event }) => event.type === "recovered").length).toBeGreaterThanOrEqual(1);
        expect(events.at(-1)!.event.type).toBe("result");
      }
    } finally {
      await admin.config("SET", "maxmemory", "0");
      await Promise.all([queue.close(), worker.close()]);
    }
  }, 30_000);
});
