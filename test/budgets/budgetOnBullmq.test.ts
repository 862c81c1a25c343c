import { z } from "zod";
import { Agent, budget, ChatMessage, type ChatMessage as Message, type BudgetOptions, Tool } from "toolwright";
import { RunQueue, RunWorker } from "toolwright/bullmq";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { useRedisServer } from "../support/redisServer";

const redis = useRedisServer();

let names = 0;
/** A queue and a worker whose Agent makes three model calls (two tool steps, then an answer), each reporting 100 + 10 tokens and taking 30 ms on `clock`. */
function setup(limits: BudgetOptions, clock: { ms: number }) {
  const name = `budget${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const add = new Tool({ name: "add", description: "Add two numbers.", parameters: z.object({ a: z.number(), b: z.number() }), function: ({ a, b }) => a + b });
  const step = (reply: Message) => () => {
    clock.ms += 30;
    return ChatMessage.fromAssistant(reply.text, { toolCalls: reply.toolCalls, meta: { usage: { promptTokens: 100, completionTokens: 10 } } });
  };
  const model = new ScriptedChatGenerator([step(toolCallReply(["add", { a: 1, b: 2 }, "c1"])), step(toolCallReply(["add", { a: 3, b: 4 }, "c2"])), step(ChatMessage.fromAssistant("3 and 7"))]);
  const agent = new Agent({ chatGenerator: model, tools: [add], stateSchema: { elapsed_ms: { type: z.number() } }, middleware: [budget({ ...limits, now: () => clock.ms })] });
  const queue = new RunQueue({ connection, name });
  const worker = new RunWorker({ agent, connection, name });
  return { queue, close: async () => Promise.all([queue.close(), worker.close()]) };
}

async function stopped(queue: RunQueue, runId: string) {
  for await (const _ of queue.events(runId)) void _;
  const outcome = await queue.result(runId);
  if (outcome.status !== "stopped") throw new Error(`stopped expected, got ${outcome.status}`);
  return outcome.result;
}

describe("budget on toolwright/bullmq", () => {
  it("counts the model calls and tokens of every step, each a job of its own, against one budget", async () => {
    const { queue, close } = setup({ maxTotalTokens: 220 }, { ms: 0 });
    try {
      const result = await stopped(queue, await queue.start({ messages: [ChatMessage.fromUser("sums?")] }));

      expect(result.exitReason).toBe("budget_exhausted");
      expect(result.stopped).toEqual({ exitReason: "budget_exhausted", middleware: "budget", hook: "beforeModel", reason: "totalTokens budget exhausted", details: { budget: "totalTokens", limit: 220, used: 220 } });
      expect(result.stepCount).toBe(2);
      expect(result.usage).toMatchObject({ modelCalls: 2, toolCalls: 2, totalTokens: 220 });
    } finally {
      await close();
    }
  });

  it("carries the run's active time across steps through elapsedStateKey", async () => {
    const { queue, close } = setup({ maxWallClockMs: 50, elapsedStateKey: "elapsed_ms" }, { ms: 0 });
    try {
      const result = await stopped(queue, await queue.start({ messages: [ChatMessage.fromUser("sums?")] }));

      // Without the key each job would start its clock at 0 and the run would never reach 50 ms.
      expect(result.exitReason).toBe("budget_exhausted");
      expect(result.stopped).toEqual({ exitReason: "budget_exhausted", middleware: "budget", hook: "afterTool", reason: "wallClockMs budget exhausted", details: { budget: "wallClockMs", limit: 50, used: 60 } });
      expect(result.state).toEqual({ elapsed_ms: 60 });
    } finally {
      await close();
    }
  });
});
