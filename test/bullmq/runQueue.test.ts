import { UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import { Agent, ChatMessage, ConfigurationError, DecisionError, DeferredConfirmationStrategy, type Middleware, Tool } from "toolwright";
import { RunNotFoundError, RunQueue, RunStateError, RunWorker, type RunEvent, type RunEventEntry } from "toolwright/bullmq";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { useRedisServer } from "../support/redisServer";

const redis = useRedisServer();

let names = 0;
function setup(options: { confirm?: boolean; slowMs?: number; failing?: boolean; pausedTtlMs?: number; typed?: boolean; middleware?: Middleware[] } = {}) {
  const name = `q${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const calls: string[] = [];
  const add = new Tool({
    name: "add",
    description: "Add two numbers.",
    parameters: z.object({ a: z.number(), b: z.number() }),
    function: async ({ a, b }, context) => {
      calls.push(context.idempotencyKey);
      if (options.failing) throw new Error("adder is down");
      if (options.slowMs) await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, options.slowMs);
        context.signal.addEventListener("abort", () => (clearTimeout(timer), reject(context.signal.reason)));
      });
      return a + b;
    },
  });
  const model = new ScriptedChatGenerator([toolCallReply(["add", { a: 1, b: 2 }, "c1"]), toolCallReply(["add", { a: 3, b: 4 }, "c2"]), ChatMessage.fromAssistant(options.typed ? '{"sums":[3,7]}' : "3 and 7")]);
  const agent = new Agent({
    chatGenerator: model,
    tools: [add],
    raiseOnToolInvocationFailure: options.failing ?? false,
    ...(options.typed && { outputSchema: z.object({ sums: z.array(z.number()) }) }),
    ...(options.confirm && { confirmationStrategies: { add: new DeferredConfirmationStrategy() } }),
    ...(options.middleware && { middleware: options.middleware }),
  });
  const queue = new RunQueue({ connection, name, ...(options.pausedTtlMs && { pausedTtlMs: options.pausedTtlMs }) });
  const worker = new RunWorker({ agent, connection, name, ...(options.pausedTtlMs && { pausedTtlMs: options.pausedTtlMs }) });
  return { queue, worker, calls, close: async () => Promise.all([queue.close(), worker.close()]) };
}

async function collect(queue: RunQueue, runId: string, after?: string): Promise<Array<{ id: string; event: RunEvent }>> {
  const out: Array<{ id: string; event: RunEvent }> = [];
  for await (const entry of queue.events(runId, after === undefined ? {} : { after })) out.push(entry);
  return out;
}

describe("RunQueue and RunWorker on a real Redis", () => {
  it("runs a queued run step by step on a worker and streams its events to the end", async () => {
    const { queue, calls, close } = setup();
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-1" });
      const events = await collect(queue, runId);
      const outcome = await queue.result(runId);

      expect(runId).toBe("run-1");
      expect(events.map((e) => e.event.type)).toEqual([
        ...["toolCallDelta", "finish", "toolResult", "finish"],
        ...["toolCallDelta", "finish", "toolResult", "finish"],
        ...["text", "text", "text", "finish"],
        "result",
      ]);
      expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => (BigInt(a.split("-")[0]!) === BigInt(b.split("-")[0]!) ? Number(a.split("-")[1]) - Number(b.split("-")[1]) : BigInt(a.split("-")[0]!) < BigInt(b.split("-")[0]!) ? -1 : 1)));
      const rest = await collect(queue, runId, events[5]!.id);
      expect(rest).toEqual(events.slice(6));
      expect(outcome.status).toBe("done");
      if (outcome.status !== "done") throw new Error("not done");
      expect(outcome.result.exitReason).toBe("text");
      expect(outcome.result.stepCount).toBe(3);
      // Three steps, each a job of its own: the totals travel in the checkpoints.
      expect(outcome.result.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 3, toolCalls: 2, failedToolCalls: 0, toolCallsByName: { add: 2 } });
      expect(outcome.result.lastMessage).toEqual(ChatMessage.fromAssistant("3 and 7").toJSON());
      expect(calls).toEqual(["run-1:1:c1", "run-1:2:c2"]);
    } finally {
      await close();
    }
  });

  it("returns the typed output of a worker's Agent with an outputSchema beside the state, not in it", async () => {
    const { queue, close } = setup({ typed: true });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      await collect(queue, runId);
      const outcome = await queue.result(runId);
      if (outcome.status !== "done") throw new Error("not done");
      expect(outcome.result.output).toEqual({ sums: [3, 7] });
      expect(outcome.result.state).toEqual({});
    } finally {
      await close();
    }
  });

  it("ends a run a middleware stops as stopped, with exitReason stopped and who stopped it beside the state, not in it", async () => {
    const budget: Middleware = { name: "budget", beforeModel: ({ usage }) => (usage.modelCalls >= 2 ? { stop: { reason: "two model calls", details: { used: usage.modelCalls } } } : undefined) };
    const { queue, calls, close } = setup({ middleware: [budget] });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-stopped" });
      await collect(queue, runId);
      const outcome = await queue.result(runId);
      if (outcome.status !== "stopped") throw new Error(`not stopped: ${outcome.status}`);
      expect(outcome.stopped).toEqual(outcome.result.stopped);
      expect(outcome.result.exitReason).toBe("stopped");
      expect(outcome.result.stopped).toEqual({ exitReason: "stopped", middleware: "budget", hook: "beforeModel", reason: "two model calls", details: { used: 2 } });
      expect(outcome.result.stepCount).toBe(2);
      expect(outcome.result.state).toEqual({});
      expect(calls).toEqual(["run-stopped:1:c1", "run-stopped:2:c2"]);
    } finally {
      await close();
    }
  });

  it("pauses for a confirmation, resumes exactly once, and refuses the second resume", async () => {
    const { queue, calls, close } = setup({ confirm: true });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      const paused = await queue.result(runId);
      expect(paused).toEqual({ status: "paused", pendingConfirmations: [{ toolCallId: "c1", toolName: "add", arguments: { a: 1, b: 2 } }] });

      const resumes = await Promise.allSettled([queue.resume(runId, { c1: { action: "confirm" } }), queue.resume(runId, { c1: { action: "confirm" } })]);
      expect(resumes.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = resumes.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(RunStateError);

      const second = await queue.result(runId);
      expect(second).toEqual({ status: "paused", pendingConfirmations: [{ toolCallId: "c2", toolName: "add", arguments: { a: 3, b: 4 } }] });
      await queue.resume(runId, { c2: { action: "confirm" } });
      const done = await queue.result(runId);
      expect(done.status).toBe("done");
      expect(calls).toEqual([`${runId}:1:c1`, `${runId}:2:c2`]);
    } finally {
      await close();
    }
  });

  it("refuses unknown runs, hostile run ids and taken ids with typed errors", async () => {
    const { queue, close } = setup();
    try {
      await expect(queue.result("nope")).rejects.toBeInstanceOf(RunNotFoundError);
      await expect(queue.resume("../x", {})).rejects.toThrow("RunQueue.resume was given a run id that is not 1 to 128 characters of letters, digits, '_' and '-'");
      await queue.start({ messages: [ChatMessage.fromUser("hi")] }, { runId: "taken" });
      await expect(queue.start({ messages: [ChatMessage.fromUser("hi")] }, { runId: "taken" })).rejects.toBeInstanceOf(RunStateError);
    } finally {
      await close();
    }
  });

  it("refuses decisions that do not fit the pause with a DecisionError and leaves the run paused", async () => {
    const { queue, calls, close } = setup({ confirm: true });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      await queue.result(runId);

      await expect(queue.resume(runId, {})).rejects.toThrow(
        'RunQueue.resume resumes a run waiting for confirmation of c1 (add); pass decisions: { "c1": { action: "confirm" } } (or "reject", or "modify" with arguments).',
      );
      await expect(queue.resume(runId, { c9: { action: "confirm" } })).rejects.toThrow("RunQueue.resume was given a decision for 'c9', which is not a call waiting for confirmation; pending calls: c1.");
      await expect(queue.resume(runId, JSON.parse('{"__proto__": {"action": "confirm"}, "c1": {"action": "confirm"}}'))).rejects.toThrow(
        "RunQueue.resume was given a decision for '__proto__', which is not a call waiting for confirmation; pending calls: c1.",
      );
      await expect(queue.resume(runId, { c1: { action: "maybe" } as never })).rejects.toBeInstanceOf(DecisionError);

      expect(await queue.result(runId)).toEqual({ status: "paused", pendingConfirmations: [{ toolCallId: "c1", toolName: "add", arguments: { a: 1, b: 2 } }] });
      expect(calls).toEqual([]);
    } finally {
      await close();
    }
  });

  it("cancels a running run from another queue: the tool's signal aborts and the stream ends with cancelled", async () => {
    const { queue, calls, close } = setup({ slowMs: 10_000 });
    const other = new RunQueue({ connection: { host: redis.host, port: redis.port }, name: `q${names}` });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));

      expect(await other.cancel(runId)).toBe("running");
      const events = await collect(queue, runId);

      expect(events.at(-1)!.event).toEqual({ type: "cancelled" });
      expect(await queue.result(runId)).toEqual({ status: "cancelled" });
      expect(await other.cancel(runId)).toBe("cancelled");
    } finally {
      await other.close();
      await close();
    }
  });

  it("cancels a paused run without a worker, and refuses to resume it", async () => {
    const { queue, close } = setup({ confirm: true });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      await queue.result(runId);

      expect(await queue.cancel(runId)).toBe("paused");
      await expect(queue.resume(runId, { c1: { action: "confirm" } })).rejects.toThrow(`RunQueue.resume: run '${runId}' is not paused (it is cancelled)`);
      expect(await queue.result(runId)).toEqual({ status: "cancelled" });
    } finally {
      await close();
    }
  });

  it("ends a run whose tool fails (raiseOnToolInvocationFailure) with a failed event naming the error", async () => {
    const { queue, close } = setup({ failing: true });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      const outcome = await queue.result(runId);

      expect(outcome.status).toBe("failed");
      expect(outcome.status === "failed" && outcome.error.message).toContain("adder is down");
      const events = await collect(queue, runId);
      expect(events.at(-1)!.event.type).toBe("failed");
    } finally {
      await close();
    }
  });

  it("forgets a paused run after pausedTtlMs", async () => {
    const { queue, close } = setup({ confirm: true, pausedTtlMs: 1000 });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] });
      await queue.result(runId);
      await new Promise((resolve) => setTimeout(resolve, 1300));

      await expect(queue.resume(runId, { c1: { action: "confirm" } })).rejects.toBeInstanceOf(RunNotFoundError);
    } finally {
      await close();
    }
  });

  it("refuses start input that cannot cross Redis, naming the field", async () => {
    const { queue, close } = setup();
    try {
      await expect(queue.start({ messages: [ChatMessage.fromUser("hi")], when: new Date(0) })).rejects.toThrow(
        "RunQueue.start has 'when' that is a Date; a queued run's input crosses Redis as JSON, so pass plain data (strings, numbers, booleans, null, arrays, plain objects).",
      );
      await expect(queue.start({ messages: [ChatMessage.fromUser("hi")], signal: new AbortController().signal })).rejects.toThrow("RunQueue.start was given 'signal', which cannot cross to a worker");
      await expect(queue.start({ messages: [{ role: "wizard" }] })).rejects.toThrow("RunQueue.start has messages[0] that is not a ChatMessage or its JSON form");
      // A key named __proto__ crosses as data: the worker's Agent refuses it as an unknown state key.
      const hostile = await queue.start(JSON.parse('{"messages": [{"role": "user", "content": [{"text": "hi"}]}], "__proto__": {"polluted": true}}'));
      const outcome = await queue.result(hostile);
      expect(outcome.status === "failed" && outcome.error.name).toBe("StateKeyError");
      expect(outcome.status === "failed" && outcome.error.message).toContain("'__proto__'");
      await expect(collect(queue, "x", "0-0; DROP")).rejects.toThrow("RunQueue.events was given an 'after' event id that is not a Redis Stream id");
    } finally {
      await close();
    }
  });

  it("requeues a run left queued with no job (its replica died between recording it and adding the job)", async () => {
    const connection = { host: redis.host, port: redis.port };
    const name = `q${++names}`;
    const queue = new RunQueue({ connection, name });
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("hello")]);
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("hi")] }, { runId: "orphan" });
      await queue.bullQueue.drain(); // the job is gone, as if it had never been added

      expect(await queue.requeue(runId)).toBe(true);
      expect(await queue.requeue(runId)).toBe(false);
      const worker = new RunWorker({ agent: new Agent({ chatGenerator: model }), connection, name });
      try {
        const outcome = await queue.result(runId);
        expect(outcome.status === "done" && outcome.result.lastMessage).toEqual(ChatMessage.fromAssistant("hello").toJSON());
        expect(await queue.requeue(runId)).toBe(false);
      } finally {
        await worker.close();
      }
      await expect(queue.requeue("missing")).rejects.toBeInstanceOf(RunNotFoundError);
    } finally {
      await queue.close();
    }
  });

  it("ends following a finished run at once when given its last event's id, and refuses malformed or out-of-range ids with a ConfigurationError", async () => {
    const { queue, close } = setup();
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "finished" });
      const events = await collect(queue, runId);
      expect(events.at(-1)!.event.type).toBe("result");
      // A poll of a minute: were the iteration to wait for more events, the test would time out.
      const again: RunEventEntry[] = [];
      for await (const entry of queue.events(runId, { after: events.at(-1)!.id, pollMs: 60_000 })) again.push(entry);
      expect(again).toEqual([]);
      expect(await collect(queue, runId, events.at(-2)!.id)).toEqual(events.slice(-1));

      const refusals: Array<[string, string]> = [
        ["abc", "RunQueue.events was given an 'after' event id that is not a Redis Stream id such as 1700000000000-0, got string \"abc\"."],
        ["99999999999999999999-0", "RunQueue.events was given an 'after' event id that is not a Redis Stream id such as 1700000000000-0, got string \"99999999999999999999-0\"."],
        ["1-18446744073709551616", "RunQueue.events was given an 'after' event id that is not a Redis Stream id such as 1700000000000-0, got string \"1-18446744073709551616\"."],
        ["18446744073709551615-18446744073709551615", `RunQueue.events was given an 'after' event id '18446744073709551615-18446744073709551615' that is later than the last event of run 'finished' (${events.at(-1)!.id}); give an id the run's events carried.`],
      ];
      for (const [after, message] of refusals) {
        const error = await collect(queue, runId, after).then(() => undefined, (reason: unknown) => reason);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message).toBe(message);
      }
    } finally {
      await close();
    }
  });

  it("continues a run whose leg's job BullMQ failed for good (requeue retries the job; recover finds such runs)", async () => {
    const connection = { host: redis.host, port: redis.port };
    const name = `q${++names}`;
    const queue = new RunQueue({ connection, name });
    const side = new Redis({ host: redis.host, port: redis.port });
    // A worker of BullMQ's own takes each run's job, as a RunWorker would, and fails it for good, as
    // after Redis refused the step's writes on every attempt and then its failed-run write too.
    const bull = new Worker(name, null, { connection: { ...connection, maxRetriesPerRequest: null }, prefix: "toolwright", autorun: false });
    try {
      for (const runId of ["held-1", "held-2"]) {
        await queue.start({ messages: [ChatMessage.fromUser("hi")] }, { runId });
        const job = (await bull.getNextJob("held-token"))!;
        expect(job.data.runId).toBe(runId);
        await side.hset(`toolwright:${name}:run:${runId}`, "status", "running", "owner", "held-token");
        await job.moveToFailed(new UnrecoverableError("OOM command not allowed when used memory > 'maxmemory'."), "held-token", false);
        expect(await job.getState()).toBe("failed");
      }

      expect(await queue.requeue("held-1")).toBe(true);
      expect(await queue.requeue("held-1")).toBe(false);
      expect(await queue.recover()).toEqual(["held-2"]);
      expect(await queue.recover()).toEqual([]);

      const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("hello"), ChatMessage.fromAssistant("hello")]);
      const worker = new RunWorker({ agent: new Agent({ chatGenerator: model }), connection, name });
      try {
        for (const runId of ["held-1", "held-2"]) {
          const outcome = await queue.result(runId, { timeoutMs: 10_000 });
          expect(outcome.status === "done" && outcome.result.lastMessage).toEqual(ChatMessage.fromAssistant("hello").toJSON());
          expect((await collect(queue, runId)).map(({ event }) => event.type)).toEqual(["recovered", "text", "finish", "result"]);
        }
      } finally {
        await worker.close();
      }
    } finally {
      await bull.close();
      side.disconnect();
      await queue.close();
    }
  });
});
