// Every RunQueue call is bounded while Redis is paused (SIGSTOP: connections stay open, nothing
// answers): it rejects with RunWaitError instead of waiting for the length of the outage.
import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunQueue, RunWaitError, RunWorker, type RunEventEntry } from "toolwright/bullmq";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { createServer, type AddressInfo } from "node:net";
import { startRedis, type RedisServer } from "../support/redisServer";

let redis: RedisServer;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  redis = await startRedis();
  process.on("unhandledRejection", onUnhandled);
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await redis?.stop();
});

async function caught(promise: Promise<unknown>): Promise<RunWaitError> {
  const error = await promise.then(
    () => new Error("resolved"),
    (reason: unknown) => reason,
  );
  if (!(error instanceof RunWaitError)) throw new Error(`expected a RunWaitError, got ${String(error)}`);
  return error;
}

async function drain(iterable: AsyncIterable<RunEventEntry>): Promise<RunEventEntry[]> {
  const out: RunEventEntry[] = [];
  for await (const entry of iterable) out.push(entry);
  return out;
}

describe("RedisDeadline", () => {
  it("names the host:port it tried and the connection error when nothing listens there", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const queue = new RunQueue({ connection: { host: "127.0.0.1", port }, name: "refused", requestTimeoutMs: 300 });
    try {
      const status = await caught(queue.status("r-1"));
      expect(status.message).toBe(
        `RunQueue.status of run 'r-1' got no answer from Redis at 127.0.0.1:${port} (last connection error: connect ECONNREFUSED 127.0.0.1:${port}) within 300 ms (requestTimeoutMs); check that Redis is up and reachable, or give the RunQueue a longer requestTimeoutMs.`,
      );
      const start = await caught(queue.start({ messages: [ChatMessage.fromUser("1+2?")] }, { runId: "r-2", timeoutMs: 100 }));
      expect(start.message).toBe(
        `RunQueue.start of run 'r-2' did not complete within its timeoutMs of 100 ms; give a longer timeoutMs, or check that Redis at 127.0.0.1:${port} (last connection error: connect ECONNREFUSED 127.0.0.1:${port}) is up and answering.`,
      );
    } finally {
      await queue.close();
    }
  });

  it("bounds start, resume, cancel, result and events during a Redis pause with a RunWaitError, and loses nothing once Redis continues", async () => {
    const connection = { host: redis.host, port: redis.port };
    const add = new Tool({ name: "add", description: "Add two numbers.", parameters: z.object({ a: z.number(), b: z.number() }), function: async ({ a, b }) => a + b });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([toolCallReply(["add", { a: 1, b: 2 }, "c1"]), ChatMessage.fromAssistant("3")]),
      tools: [add],
      confirmationStrategies: { add: new DeferredConfirmationStrategy() },
    });
    const queue = new RunQueue({ connection, name: "outage", requestTimeoutMs: 500 });
    const worker = new RunWorker({ agent, connection, name: "outage" });
    try {
      const paused = await queue.start({ messages: [ChatMessage.fromUser("1+2?")] }, { runId: "paused-1" });
      expect((await queue.result(paused, { timeoutMs: 10_000 })).status).toBe("paused");

      await redis.signal("SIGSTOP");
      try {
        const start = await caught(queue.start({ messages: [ChatMessage.fromUser("1+2?")] }, { runId: "during-outage" }));
        expect(start.message).toBe(`RunQueue.start of run 'during-outage' got no answer from Redis at ${redis.host}:${redis.port} within 500 ms (requestTimeoutMs); check that Redis is up and reachable, or give the RunQueue a longer requestTimeoutMs.`);
        expect([start.operation, start.runId, start.reason, start.waitedMs]).toEqual(["RunQueue.start", "during-outage", "unanswered", 500]);

        const resume = await caught(queue.resume(paused, { c1: { action: "confirm" } }, { timeoutMs: 200 }));
        expect(resume.message).toBe(`RunQueue.resume of run 'paused-1' did not complete within its timeoutMs of 200 ms; give a longer timeoutMs, or check that Redis at ${redis.host}:${redis.port} is up and answering.`);
        expect(resume.reason).toBe("timeout");

        const controller = new AbortController();
        const cancelling = caught(queue.cancel(paused, { signal: controller.signal }));
        controller.abort(new Error("the client went away"));
        const cancel = await cancelling;
        expect(cancel.message).toBe("RunQueue.cancel of run 'paused-1' was given up: its signal aborted.");
        expect([cancel.reason, (cancel.cause as Error).message]).toEqual(["aborted", "the client went away"]);

        const result = await caught(queue.result(paused));
        expect(result.message).toBe(`RunQueue.result of run 'paused-1' got no answer from Redis at ${redis.host}:${redis.port} within 500 ms (requestTimeoutMs); check that Redis is up and reachable, or give the RunQueue a longer requestTimeoutMs.`);

        const events = await caught(drain(queue.events(paused)));
        expect(events.message).toBe(`RunQueue.events of run 'paused-1' got no answer from Redis at ${redis.host}:${redis.port} within 500 ms (requestTimeoutMs); check that Redis is up and reachable, or give the RunQueue a longer requestTimeoutMs.`);
        // The caller's own signal ends following quietly, outage or not.
        expect(await drain(queue.events(paused, { signal: AbortSignal.timeout(100) }))).toEqual([]);
      } finally {
        await redis.signal("SIGCONT");
      }

      // What Redis had received took effect when it continued (as documented): the cancel, sent before
      // the caller gave up, cancelled the run; the start was recorded but its job never added (the call
      // gave up in between), which requeue repairs; the resume gave up before its claim was sent.
      expect(await queue.result(paused, { timeoutMs: 5000 })).toEqual({ status: "cancelled" });
      expect(await queue.requeue("during-outage")).toBe(true);
      // The script's next reply answers it at once.
      expect((await queue.result("during-outage", { timeoutMs: 10_000 })).status).toBe("done");
      expect(unhandled).toEqual([]);
    } finally {
      await Promise.all([queue.close(), worker.close()]);
    }
  }, 30_000);

  it("refuses a timeoutMs or requestTimeoutMs that is not a whole number of milliseconds", async () => {
    const connection = { host: redis.host, port: redis.port };
    expect(() => new RunQueue({ connection, requestTimeoutMs: 0 })).toThrow("RunQueue has a requestTimeoutMs that is not a whole number of milliseconds of at least 1, got number 0.");
    const queue = new RunQueue({ connection, name: "bad-timeouts" });
    try {
      await expect(queue.cancel("r1", { timeoutMs: 1.5 })).rejects.toThrow("RunQueue.cancel has a timeoutMs that is not a whole number of milliseconds of at least 1, got number 1.5.");
    } finally {
      await queue.close();
    }
  });
});
