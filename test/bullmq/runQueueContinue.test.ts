import { z } from "zod";
import { Agent, budget, ChatMessage, ConfigurationError, DeferredConfirmationStrategy, denyPatterns, type Guardrail, inputGuardrail, type Middleware, Tool } from "toolwright";
import { RunQueue, RunStateError, RunWorker, type RunEventEntry } from "toolwright/bullmq";
import { type ScriptEntry, ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { useRedisServer } from "../support/redisServer";

const redis = useRedisServer();

const snapshotKey = "continue-test-key-continue-test-key";
const stateSchema = { budget_limits: { type: z.record(z.string(), z.number()) }, review: { type: z.enum(["approved", "denied"]) } };

/** Every model reply reports 100 + 10 tokens. */
function metered(reply: ChatMessage): ScriptEntry {
  return () => ChatMessage.fromAssistant(reply.text, { toolCalls: reply.toolCalls, meta: { usage: { promptTokens: 100, completionTokens: 10 } } });
}

const sums = [toolCallReply(["add", { a: 1, b: 2 }, "c1"]), toolCallReply(["add", { a: 3, b: 4 }, "c2"]), toolCallReply(["add", { a: 5, b: 6 }, "c3"]), ChatMessage.fromAssistant("3, 7 and 11")];

let names = 0;
/** One queue; `worker(...)` adds a RunWorker with an Agent of its own (its own model script and middleware), as another process would. */
function setup() {
  const name = `continue${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const queue = new RunQueue({ connection, name });
  const workers: RunWorker[] = [];
  const gates: Array<() => void> = [];
  const worker = (script: readonly ScriptEntry[], middleware: (Middleware | ReturnType<typeof budget>)[], options: { confirm?: boolean; gated?: boolean } = {}) => {
    const add = new Tool({
      name: "add",
      description: "Add two numbers.",
      parameters: z.object({ a: z.number(), b: z.number() }),
      function: async ({ a, b }) => {
        if (options.gated) await new Promise<void>((resolve) => gates.push(resolve));
        return a + b;
      },
    });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator(script),
      tools: [add],
      stateSchema,
      snapshotKey,
      middleware,
      ...(options.confirm && { confirmationStrategies: { add: new DeferredConfirmationStrategy() } }),
    });
    const created = new RunWorker({ agent, connection, name });
    workers.push(created);
    return created;
  };
  return { queue, worker, gates, close: async () => Promise.all([queue.close(), ...workers.map((w) => w.close())]) };
}

/** The run's events after `after`, to the end of the current leg. */
async function leg(queue: RunQueue, runId: string, after = "0"): Promise<RunEventEntry[]> {
  const out: RunEventEntry[] = [];
  for await (const entry of queue.events(runId, { after })) out.push(entry);
  return out;
}

describe("RunQueue.continue", () => {
  it("continues a run a budget stopped on another RunWorker, with limits raised through state, counting what it used before the stop", async () => {
    const { queue, worker, close } = setup();
    try {
      const first = worker([metered(sums[0]!), metered(sums[1]!)], [budget({ maxModelCalls: 2, limitsStateKey: "budget_limits" })]);
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-budget" });

      const events = await leg(queue, runId);
      const stop = { exitReason: "budget_exhausted", middleware: "budget", hook: "beforeModel", reason: "modelCalls budget exhausted", details: { budget: "modelCalls", limit: 2, used: 2 } };
      const end = events.at(-1)!.event;
      if (end.type !== "stopped") throw new Error(`stopped expected, got ${end.type}`);
      expect(end.stopped).toEqual(stop);
      expect(end.result).toMatchObject({ exitReason: "budget_exhausted", stepCount: 2, stopped: stop, usage: { modelCalls: 2, toolCalls: 2, totalTokens: 220 } });
      const outcome = await queue.result(runId);
      expect(outcome).toEqual({ status: "stopped", stopped: stop, result: end.result });
      await first.close();

      // Another worker, another Agent and budget (the same limits in code): only state carries the raise.
      worker([metered(sums[2]!), metered(sums[3]!)], [budget({ maxModelCalls: 2, limitsStateKey: "budget_limits" })]);
      await queue.continue(runId, { state: { budget_limits: { maxModelCalls: 3 } } });
      const second = await leg(queue, runId, events.at(-1)!.id);
      // One model call in this process, three in the run: the earlier two still count.
      expect(second.at(-1)!.event).toMatchObject({ type: "stopped", stopped: { details: { budget: "modelCalls", limit: 3, used: 3 } } });

      await queue.continue(runId, { state: { budget_limits: { maxModelCalls: 4 } } });
      const third = await leg(queue, runId, second.at(-1)!.id);
      const done = await queue.result(runId);
      if (done.status !== "done") throw new Error(`done expected, got ${done.status}`);
      expect(third.at(-1)!.event).toEqual({ type: "result", result: done.result });
      expect(done.result).toMatchObject({ exitReason: "text", stepCount: 4, usage: { modelCalls: 4, toolCalls: 3, totalTokens: 440 }, state: { budget_limits: { maxModelCalls: 4 } } });
      expect(done.result.lastMessage.content).toEqual([{ text: "3, 7 and 11" }]);
      expect(done.result.stopped).toBeUndefined();
    } finally {
      await close();
    }
  });

  it("lets exactly one of two concurrent continues win and refuses the other", async () => {
    const { queue, worker, close } = setup();
    try {
      const first = worker([metered(sums[0]!)], [budget({ maxModelCalls: 1, limitsStateKey: "budget_limits" })]);
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-race" });
      await leg(queue, runId);
      await first.close();

      // No worker runs meanwhile: the winner's run stays queued.
      const settled = await Promise.allSettled([queue.continue(runId, { state: { budget_limits: { maxModelCalls: 5 } } }), queue.continue(runId, { state: { budget_limits: { maxModelCalls: 6 } } })]);

      expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
      const refused = settled.find((s) => s.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(RunStateError);
      expect(refused.reason).toMatchObject({ runId, status: "queued" });
      expect((refused.reason as Error).message).toBe(
        "RunQueue.continue: run 'run-race' is not stopped (it is queued); another continue of the same stop may have won, or the run was cancelled. Follow it with queue.events('run-race').",
      );

      worker([metered(sums[1]!), metered(sums[2]!), metered(sums[3]!)], [budget({ maxModelCalls: 1, limitsStateKey: "budget_limits" })]);
      const done = await queue.result(runId);
      if (done.status !== "done") throw new Error(`done expected, got ${done.status}`);
      expect(done.result.usage.modelCalls).toBe(4);
    } finally {
      await close();
    }
  });

  it("refuses a run that is running, paused or done, with the status it is in", async () => {
    const { queue, worker, gates, close } = setup();
    const message = (runId: string, status: string) =>
      `RunQueue.continue: run '${runId}' is not stopped (it is ${status}); another continue of the same stop may have won, or the run was cancelled. Follow it with queue.events('${runId}').`;
    try {
      worker([sums[0]!, sums[3]!], [], { gated: true });
      const running = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-running" });
      while (gates.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await expect(queue.continue(running)).rejects.toThrow(new RunStateError(running, "running", message(running, "running")));
      gates.shift()!();
      expect((await queue.result(running)).status).toBe("done");
      await expect(queue.continue(running)).rejects.toThrow(message(running, "done"));


      const other = setup();
      try {
        other.worker([sums[0]!], [], { confirm: true });
        const paused = await other.queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-paused" });
        expect((await other.queue.result(paused)).status).toBe("paused");
        await expect(other.queue.continue(paused)).rejects.toThrow(message(paused, "paused"));
      } finally {
        await other.close();
      }
    } finally {
      while (gates.length > 0) gates.shift()!();
      await close();
    }
  });

  it("refuses state that cannot cross Redis as JSON, or that sets the conversation", async () => {
    const { queue, close } = setup();
    try {
      await expect(queue.continue("run-x", { state: { review: new Date(0) } })).rejects.toThrow(
        new ConfigurationError("RunQueue.continue", "RunQueue.continue has a state with 'review' that is a Date; it crosses Redis as JSON, so pass plain data (strings, numbers, booleans, null, arrays, plain objects)."),
      );
      await expect(queue.continue("run-x", { state: { messages: [] } })).rejects.toThrow(
        "RunQueue.continue has a state with 'messages'; a continued run keeps its conversation, so set the state keys its middleware reads.",
      );
    } finally {
      await close();
    }
  });

  it("cancels a stopped run: the stream ends with cancelled and the run can no longer continue", async () => {
    const { queue, worker, close } = setup();
    try {
      worker([metered(sums[0]!)], [budget({ maxModelCalls: 1 })]);
      const runId = await queue.start({ messages: [ChatMessage.fromUser("sums?")] }, { runId: "run-cancel" });
      const events = await leg(queue, runId);
      expect(events.at(-1)!.event.type).toBe("stopped");

      expect(await queue.cancel(runId)).toBe("stopped");

      expect(await queue.result(runId)).toEqual({ status: "cancelled" });
      expect((await leg(queue, runId, events.at(-1)!.id)).map((e) => e.event)).toEqual([{ type: "cancelled" }]);
      await expect(queue.continue(runId)).rejects.toThrow(
        "RunQueue.continue: run 'run-cancel' is not stopped (it is cancelled); another continue of the same stop may have won, or the run was cancelled. Follow it with queue.events('run-cancel').",
      );
    } finally {
      await close();
    }
  });

  it("continues a run an input guardrail tripped once a person's review is in state, on another worker; a value the stateSchema refuses leaves it stopped, saying why", async () => {
    const { queue, worker, close } = setup();
    // The person's decision is state, so every worker sees it; until then, deny patterns decide.
    const deny = denyPatterns({ patterns: ["(?i)refund"] });
    const reviewed: Guardrail = { name: "refund-review", check: (input, context) => (context.state.get("review") === "approved" ? { pass: true } : deny.check(input, context)) };
    try {
      const first = worker([ChatMessage.fromAssistant("unused")], [inputGuardrail(reviewed)]);
      const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund order A-100, please.")] }, { runId: "run-guarded" });
      const events = await leg(queue, runId);
      const stop = {
        exitReason: "guardrail_tripped",
        middleware: "input-guardrail:refund-review",
        hook: "beforeModel",
        reason: 'The text matches the deny pattern "(?i)refund".',
        details: { pattern: "(?i)refund", guardrail: "refund-review", point: "input" },
      };
      expect(events.at(-1)!.event).toMatchObject({ type: "stopped", stopped: stop, result: { stepCount: 0 } });
      await first.close();

      worker([ChatMessage.fromAssistant("A person approved it: order A-100 is refunded."), ChatMessage.fromAssistant("A person approved it: order B-7 is refunded.")], [inputGuardrail(reviewed)]);
      await queue.continue(runId, { state: { review: "approved" } });
      const done = await queue.result(runId);
      if (done.status !== "done") throw new Error(`done expected, got ${done.status}`);
      expect(done.result).toMatchObject({ exitReason: "text", stepCount: 1, state: { review: "approved" } });
      expect(done.result.lastMessage.content).toEqual([{ text: "A person approved it: order A-100 is refunded." }]);

      // A value the worker's stateSchema refuses loses nothing: the run is stopped where it was, says why, and continues with a good value.
      const second = await queue.start({ messages: [ChatMessage.fromUser("Refund order B-7.")] }, { runId: "run-refused" });
      const firstLeg = await leg(queue, second);
      const firstStop = await queue.result(second);
      if (firstStop.status !== "stopped") throw new Error(`stopped expected, got ${firstStop.status}`);
      await queue.continue(second, { state: { review: "maybe" } });
      const refused = await queue.result(second);
      if (refused.status !== "stopped") throw new Error(`stopped expected, got ${refused.status}`);
      expect(refused.stopped).toEqual(firstStop.stopped);
      expect(refused.refused).toEqual({
        name: "StateTypeError",
        message: 'State key \'review\' rejected a value that does not match its type: review: Invalid option: expected one of "approved"|"denied". The value was not stored.',
      });
      expect((await leg(queue, second, firstLeg.at(-1)!.id)).at(-1)!.event).toMatchObject({ type: "stopped", stopped: firstStop.stopped, refused: { name: "StateTypeError" } });
      await queue.continue(second, { state: { review: "approved" } });
      const after = await queue.result(second);
      if (after.status !== "done") throw new Error(`done expected, got ${after.status}`);
      expect(after.result.exitReason).toBe("text");
    } finally {
      await close();
    }
  });
});
