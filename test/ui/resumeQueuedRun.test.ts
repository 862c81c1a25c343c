import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunQueue, RunWorker, type RunEventEntry } from "toolwright/bullmq";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { resumableRunEvents } from "../../src/ui/resumableRunEvents";
import { resumeQueuedRun } from "../../src/ui/resumeQueuedRun";
import { UIRequestError } from "../../src/ui/uiRequestError";
import { useRedisServer } from "../support/redisServer";

const redis = useRedisServer();

let names = 0;
function setup(during: () => Promise<void> = async () => {}) {
  const name = `ui${++names}`;
  const connection = { host: redis.host, port: redis.port };
  const refunds: number[] = [];
  const refund = new Tool({ name: "refund", description: "Refund an amount.", parameters: z.object({ amount: z.number() }), function: async ({ amount }) => {
      await during();
      refunds.push(amount);
      return `Refunded ${amount}.`;
    },
  });
  const model = new ScriptedChatGenerator([toolCallReply(["refund", { amount: 49 }, "r1"]), ChatMessage.fromAssistant("Done.")]);
  const agent = new Agent({ chatGenerator: model, tools: [refund], confirmationStrategies: { refund: new DeferredConfirmationStrategy() } });
  const queue = new RunQueue({ connection, name });
  const worker = new RunWorker({ agent, connection, name });
  return { queue, refunds, close: async () => Promise.all([queue.close(), worker.close()]) };
}

async function collect(events: AsyncIterable<RunEventEntry>): Promise<RunEventEntry[]> {
  const out: RunEventEntry[] = [];
  for await (const entry of events) out.push(entry);
  return out;
}

describe("resumeQueuedRun", () => {
  it("resumes a paused run exactly once under two concurrent approvals; the other gets a 409", async () => {
    const { queue, refunds, close } = setup();
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund 49.")] });
      expect((await queue.result(runId)).status).toBe("paused");

      const outcomes = await Promise.allSettled([resumeQueuedRun(queue, runId, { r1: { action: "confirm" } }), resumeQueuedRun(queue, runId, { r1: { action: "confirm" } })]);
      const lost = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
      const outcome = await queue.result(runId);

      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      expect(lost!.reason).toBeInstanceOf(UIRequestError);
      expect(lost!.reason.status).toBe(409);
      expect(lost!.reason.message).toMatch(/^Run '.+' approval refused: RunQueue\.resume: run '.+' is not paused \(it is (queued|running|done)\); another resume of the same pause may have won, or the run was cancelled\. Follow it with queue\.events\('.+'\)\.$/);
      expect(outcome.status).toBe("done");
      expect(refunds).toEqual([49]);
    } finally {
      await close();
    }
  });

  it("refuses decisions that do not fit the pending calls with a 422 and leaves the run paused", async () => {
    const { queue, refunds, close } = setup();
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund 49.")] }, { runId: "ui-422" });
      await queue.result(runId);

      const error = await resumeQueuedRun(queue, runId, { x: { action: "confirm" } }).catch((e: unknown) => e as UIRequestError);

      expect(error).toBeInstanceOf(UIRequestError);
      expect((error as UIRequestError).status).toBe(422);
      expect((error as UIRequestError).message).toBe("Run 'ui-422' approval refused: RunQueue.resume was given a decision for 'x', which is not a call waiting for confirmation; pending calls: r1.");
      expect((await queue.status(runId)).status).toBe("paused");
      expect(refunds).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe("resumableRunEvents", () => {
  it("replays a running resumed run from its first event, without the pause it went past, then follows it to the end", async () => {
    let entered!: () => void;
    const inTool = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { queue, close } = setup(async () => {
      entered();
      await gate;
    });
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund 49.")] });
      await queue.result(runId);
      const pausedReplay = await collect((await resumableRunEvents(queue, runId))!);
      await resumeQueuedRun(queue, runId, { r1: { action: "confirm" } });
      await inTool;
      const replay = resumableRunEvents(queue, runId).then((events) => collect(events!));
      release();
      const replayed = await replay;
      const firstLeg = await collect(queue.events(runId));
      const secondLeg = await collect(queue.events(runId, { after: firstLeg.at(-1)!.id }));

      expect(pausedReplay).toEqual(firstLeg);
      expect(firstLeg.at(-1)!.event.type).toBe("paused");
      expect(replayed).toEqual([...firstLeg.slice(0, -1), ...secondLeg]);
      expect(replayed.at(-1)!.event.type).toBe("result");
      expect(new Set(replayed.map((e) => e.id)).size).toBe(replayed.length);
      expect(await resumableRunEvents(queue, runId)).toBeUndefined();
    } finally {
      await close();
    }
  });
});
