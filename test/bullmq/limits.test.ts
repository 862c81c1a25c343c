// Fleet-wide limits on a real Redis: BullMQ's limiter counts model calls across every worker of a
// queue, and a worker's concurrency bounds the steps it runs at once. Asserted from BullMQ's own
// state in Redis (the limiter's TTL, job counts) and from counters, never from timings.
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, ChatMessage, ConfigurationError, Tool, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse } from "toolwright";
import { RunQueue, RunWorker } from "toolwright/bullmq";
import { z } from "zod";
import { startRedis, type RedisServer } from "../support/redisServer";

let redis: RedisServer;
let connection: { host: string; port: number };
beforeAll(async () => {
  redis = await startRedis();
  connection = { host: redis.host, port: redis.port };
});
afterAll(async () => {
  await redis?.stop();
});

let names = 0;
const closing: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((it) => it.close()));
});

function open<T extends { close(): Promise<void> }>(it: T): T {
  closing.push(it);
  return it;
}

/**
 * A model for any worker: it reads the run's progress from the conversation (the tool results so
 * far), so a run's steps may land on different workers. It calls `step` `steps` times, then answers.
 */
class StepsModel implements ChatGenerator {
  calls = 0;
  constructor(readonly steps: number) {}

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    this.calls++;
    const done = request.messages.filter((message) => message.role === "tool").length;
    const reply =
      done < this.steps
        ? ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `c${done}`, toolName: "step", arguments: { n: done } }] })
        : ChatMessage.fromAssistant(`done after ${done} steps`);
    return { replies: [reply], meta: { model: "steps", finishReason: reply.toolCalls.length > 0 ? "tool_calls" : "stop" } };
  }
}

function stepTool(run: (n: number, key: string) => Promise<void> | void): Tool {
  return new Tool({
    name: "step",
    description: "Take a step.",
    parameters: z.object({ n: z.number() }),
    function: async ({ n }, context) => {
      await run(n, context.idempotencyKey);
      return n;
    },
  });
}

/** Polls `condition` (a read of Redis or a counter) until it holds; fails after 15 s. */
async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
  for (const started = Date.now(); !(await condition()); await sleep(20)) {
    if (Date.now() - started > 15_000) throw new Error(`still not true after 15 s: ${what}`);
  }
}

describe("RunWorker limits", () => {
  it("limits model calls for the whole queue: two workers together make at most `max` per window, then the runs go on", async () => {
    const name = `limits${++names}`;
    const model = new StepsModel(3); // 4 model calls per run
    const executed: string[] = [];
    const agent = new Agent({ chatGenerator: model, tools: [stepTool((_n, key) => void executed.push(key))] });
    const queue = open(new RunQueue({ connection, name }));
    const limited = [open(new RunWorker({ agent, connection, name, limiter: { max: 3, duration: 600_000 } })), open(new RunWorker({ agent, connection, name, limiter: { max: 3, duration: 600_000 } }))];

    const runIds = await Promise.all(["a", "b"].map((runId) => queue.start({ messages: [ChatMessage.fromUser("go")] }, { runId })));

    // Three steps were fetched in the (ten-minute) window: BullMQ's limiter key has a TTL, and both
    // runs wait in the queue with no step running, on either worker.
    await until("the limiter is active and no step runs", async () => (await queue.bullQueue.getRateLimitTtl(3)) > 0 && (await queue.bullQueue.getActiveCount()) === 0);
    expect(model.calls).toBe(3);
    expect(executed).toHaveLength(3);
    expect(await queue.bullQueue.getJobCounts("active", "waiting", "completed", "failed")).toEqual({ active: 0, waiting: 2, completed: 0, failed: 0 });

    // Lift the limit (a new window) with a fresh worker: the runs finish from where they were, and
    // no step ran twice.
    await Promise.all(limited.map((worker) => worker.close()));
    await queue.bullQueue.removeRateLimitKey();
    open(new RunWorker({ agent, connection, name }));
    const outcomes = await Promise.all(runIds.map((runId) => queue.result(runId, { timeoutMs: 15_000 })));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(["done", "done"]);
    expect(model.calls).toBe(8);
    expect([...executed].sort()).toEqual(["a:1:c0", "a:2:c1", "a:3:c2", "b:1:c0", "b:2:c1", "b:3:c2"]);
  });

  it("runs at most `concurrency` steps at once on a worker", async () => {
    const name = `limits${++names}`;
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tool = stepTool(async () => {
      most = Math.max(most, ++inFlight);
      await gate;
      inFlight--;
    });
    const agent = new Agent({ chatGenerator: new StepsModel(1), tools: [tool] });
    const queue = open(new RunQueue({ connection, name }));
    open(new RunWorker({ agent, connection, name, concurrency: 2 }));

    const runIds = await Promise.all([1, 2, 3, 4, 5].map((n) => queue.start({ messages: [ChatMessage.fromUser("go")] }, { runId: `r${n}` })));

    // Two steps hold the gate; the other three runs wait in the queue for a free slot.
    await until("two steps run and three runs wait", async () => inFlight === 2 && (await queue.bullQueue.getWaitingCount()) === 3);
    expect(await queue.bullQueue.getActiveCount()).toBe(2);

    release();
    const outcomes = await Promise.all(runIds.map((runId) => queue.result(runId, { timeoutMs: 15_000 })));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["done", "done", "done", "done", "done"]);
    expect(most).toBe(2);
  });

  it("refuses limits that are not whole numbers of at least 1, naming the option", () => {
    const agent = new Agent({ chatGenerator: new StepsModel(0) });
    const attempt = (options: Record<string, unknown>) => () => new RunWorker({ agent, connection, ...options } as never);

    expect(attempt({ concurrency: 0 })).toThrow(new ConfigurationError("RunWorker", "RunWorker has a concurrency that is not a whole number of at least 1, got number 0."));
    expect(attempt({ limiter: "fast" })).toThrow(
      new ConfigurationError("RunWorker", "RunWorker has a limiter that is not { max, duration }, got string \"fast\"; give at most `max` steps per `duration` ms, e.g. { max: 10, duration: 1000 }."),
    );
    expect(attempt({ limiter: { max: 10 } })).toThrow(new ConfigurationError("RunWorker", "RunWorker has a limiter.duration that is not a whole number of at least 1, got undefined."));
    expect(attempt({ limiter: { max: 1.5, duration: 1000 } })).toThrow(new ConfigurationError("RunWorker", "RunWorker has a limiter.max that is not a whole number of at least 1, got number 1.5."));
    expect(attempt({ agent: undefined })).toThrow(new ConfigurationError("RunWorker", "RunWorker needs an agent (new Agent({...})), got undefined."));
  });
});
