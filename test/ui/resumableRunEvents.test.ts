import { readUIMessageStream, type UIMessage } from "ai";
import { Agent, ChatMessage, DeferredConfirmationStrategy, Tool } from "toolwright";
import { RunQueue, RunWorker, type RunEventEntry } from "toolwright/bullmq";
import { ScriptedChatGenerator } from "toolwright/testing";
import { fromUIMessages, resumableRunEvents, resumeQueuedRun, toUIMessageStream, type ToUIMessageStreamOptions } from "toolwright/ui";
import { z } from "zod";
import { calls, deferred, lookupCall, refundCall } from "../helpers/refundDesk";
import { useRedisServer } from "../support/redisServer";

// A chat on a real redis-server and RunWorker: the run pauses on a refund, the page approves it, the
// resumed leg streams live, and a reload in the middle of the refund replays the run as one message.
const redis = useRedisServer();

const user: UIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Refund order A-100, please." }] };

function chat() {
  const entered = deferred();
  const gate = deferred();
  const refunds: number[] = [];
  const lookup = new Tool({ name: "lookup_order", description: "Look up an order.", parameters: z.object({ orderId: z.string() }), function: ({ orderId }) => ({ orderId, paid: 49 }) });
  const refund = new Tool({
    name: "issue_refund",
    description: "Refund an order.",
    parameters: z.object({ orderId: z.string(), amount: z.number() }),
    function: async ({ orderId, amount }) => {
      entered.resolve();
      await gate.promise;
      refunds.push(amount);
      return `Refunded ${amount} on ${orderId}.`;
    },
  });
  const model = new ScriptedChatGenerator([calls(lookupCall), ChatMessage.fromAssistant("A-100 was paid 49; refunding it.", { toolCalls: [refundCall] }), ChatMessage.fromAssistant("Refunded 49 on A-100.")]);
  const agent = new Agent({ chatGenerator: model, tools: [lookup, refund], confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } });
  const connection = { host: redis.host, port: redis.port };
  const queue = new RunQueue({ connection, name: "uichat" });
  const worker = new RunWorker({ agent, connection, name: "uichat" });
  return { queue, refunds, entered: entered.promise, release: () => gate.resolve(), close: async () => Promise.all([queue.close(), worker.close()]) };
}

// Reads a run's events as ai 6's useChat does, continuing `message` when given.
async function read(events: AsyncIterable<RunEventEntry>, options: ToUIMessageStreamOptions, message?: UIMessage): Promise<{ message: UIMessage | undefined; errors: string[] }> {
  const errors: string[] = [];
  let last = message && (JSON.parse(JSON.stringify(message)) as UIMessage);
  for await (const next of readUIMessageStream({ ...(last && { message: last }), stream: toUIMessageStream(events, options), onError: (error) => errors.push(String(error)) })) last = next;
  return { message: last && (JSON.parse(JSON.stringify(last)) as UIMessage), errors };
}

async function lastEntry(events: AsyncIterable<RunEventEntry>): Promise<RunEventEntry> {
  let last: RunEventEntry | undefined;
  for await (const entry of events) last = entry;
  return last!;
}

const lookupPart = { type: "tool-lookup_order", toolCallId: "l1", state: "output-available", input: { orderId: "A-100" }, output: '{"orderId":"A-100","paid":49}' };
const reasonText = { type: "text", text: "A-100 was paid 49; refunding it.", state: "done" };
const answerText = { type: "text", text: "Refunded 49 on A-100.", state: "done" };

describe("resumableRunEvents", () => {
  it("streams a queued chat through pause, approval and a reload mid-run as one message, nothing lost or doubled", async () => {
    const { queue, refunds, entered, release, close } = chat();
    try {
      const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund order A-100, please.")] }, { runId: "chat-7" });

      const paused = await read(queue.events(runId), { messageId: runId });

      expect(paused.errors).toEqual([]);
      expect(paused.message).toEqual({
        id: runId,
        role: "assistant",
        parts: [
          { type: "step-start" },
          lookupPart,
          { type: "step-start" },
          reasonText,
          { type: "tool-issue_refund", toolCallId: "r1", state: "approval-requested", input: { orderId: "A-100", amount: 49 }, approval: { id: "r1" } },
        ],
      });

      // The person approves: useChat marks the part answered and posts the conversation.
      const answered = JSON.parse(JSON.stringify(paused.message)) as UIMessage;
      Object.assign(answered.parts[4]!, { state: "approval-responded", approval: { id: "r1", approved: true } });
      const { decisions } = fromUIMessages([user, answered]);
      expect(decisions).toEqual({ r1: { action: "confirm" } });
      const pauseId = (await lastEntry(queue.events(runId))).id;
      await resumeQueuedRun(queue, runId, decisions);
      await entered;

      // The approving page follows the resumed leg; a second page (a reload) asks for the whole run.
      const live = read(queue.events(runId, { after: pauseId }), { messageId: runId, knownToolCalls: Object.keys(decisions) }, answered);
      const replay = await resumableRunEvents(queue, runId);
      expect(replay).toBeDefined();
      const reloaded = read(replay!, { messageId: runId });
      release();
      const [continued, reload] = await Promise.all([live, reloaded]);

      expect(continued.errors).toEqual([]);
      expect(continued.message).toEqual({
        id: runId,
        role: "assistant",
        parts: [
          { type: "step-start" },
          lookupPart,
          { type: "step-start" },
          reasonText,
          { type: "tool-issue_refund", toolCallId: "r1", state: "output-available", input: { orderId: "A-100", amount: 49 }, output: "Refunded 49 on A-100.", approval: { id: "r1", approved: true } },
          { type: "step-start" },
          answerText,
        ],
      });
      expect(reload.errors).toEqual([]);
      expect(reload.message).toEqual({
        id: runId,
        role: "assistant",
        parts: [
          { type: "step-start" },
          lookupPart,
          { type: "step-start" },
          reasonText,
          { type: "tool-issue_refund", toolCallId: "r1", state: "output-available", input: { orderId: "A-100", amount: 49 }, output: "Refunded 49 on A-100." },
          { type: "step-start" },
          answerText,
        ],
      });
      expect(refunds).toEqual([49]);
      expect(await resumableRunEvents(queue, runId)).toBeUndefined();
    } finally {
      await close();
    }
  });
});
