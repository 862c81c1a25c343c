import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunNotFoundError, RunQueue, RunStateError, RunWorker, type RunEvent } from "toolwright/bullmq";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { startRedis, type RedisServer } from "../support/redisServer";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

let names = 0;
function setup(options: { confirm?: boolean } = {}) {
  const name = `q${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const calls: string[] = [];
  const add = new Tool({
    name: "add",
    description: "Add two numbers.",
    parameters: z.object({ a: z.number(), b: z.number() }),
    function: ({ a, b }, context) => {
      calls.push(context.idempotencyKey);
      return a + b;
    },
  });
  const model = new ScriptedChatGenerator([toolCallReply(["add", { a: 1, b: 2 }, "c1"]), toolCallReply(["add", { a: 3, b: 4 }, "c2"]), ChatMessage.fromAssistant("3 and 7")]);
  const agent = new Agent({ chatGenerator: model, tools: [add], ...(options.confirm && { confirmationStrategies: { add: new DeferredConfirmationStrategy() } }) });
  const queue = new RunQueue({ connection, name });
  const worker = new RunWorker({ agent, connection, name });
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
      expect(outcome.result.lastMessage).toEqual(ChatMessage.fromAssistant("3 and 7").toJSON());
      expect(calls).toEqual(["run-1:1:c1", "run-1:2:c2"]);
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
});
