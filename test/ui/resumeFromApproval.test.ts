import type { UIMessage } from "ai";
import { type AgentSnapshot, ChatMessage, DeferredConfirmationStrategy, SnapshotError } from "toolwright";
import { fromUIMessages } from "../../src/ui/fromUIMessages";
import { recordPauses } from "../../src/ui/recordPauses";
import { resumeFromApproval } from "../../src/ui/resumeFromApproval";
import { UIRequestError } from "../../src/ui/uiRequestError";
import { calls, question, refundCall, refundDesk, rejectionOf } from "../helpers/refundDesk";

const key = "a-snapshot-key-of-at-least-32-bytes!";

function desk() {
  return refundDesk({
    script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
    confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() },
    snapshotKey: key,
  });
}

// What useChat posts after the user answered the approval request of the paused run.
function approvalBody(approved: boolean): UIMessage[] {
  return [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Refund order A-100, please." }] },
    {
      id: "a1",
      role: "assistant",
      parts: [{ type: "step-start" }, { type: "tool-issue_refund", toolCallId: "r1", state: "approval-responded", input: { orderId: "A-100", amount: 49 }, approval: { id: "r1", approved } }],
    },
  ];
}

async function pausedChat() {
  const { agent, log } = desk();
  const store = new Map<string, AgentSnapshot>();
  const events = [];
  for await (const event of recordPauses(agent.stream(question()), store, "chat-1")) events.push(event);
  return { agent, log, store, events };
}

async function drain<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe("resumeFromApproval", () => {
  it("resumes the chat's paused run with the approval from useChat and runs the approved call", async () => {
    const { agent, log, store, events } = await pausedChat();
    const last = events.at(-1) as { type: "result"; result: { exitReason: string } };
    const { decisions } = fromUIMessages(approvalBody(true));

    const resumed = await drain(await resumeFromApproval(agent, store, { chatId: "chat-1", decisions }));
    const result = resumed.at(-1) as { type: "result"; result: { exitReason: string; refunds?: unknown } };

    expect(last.result.exitReason).toBe("confirmation_required");
    expect(result.result.exitReason).toBe("text");
    expect(result.result.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(log.map((c) => c.tool)).toEqual(["issue_refund"]);
    expect(store.size).toBe(0);
  });

  it("resumes exactly once under two concurrent approvals; the other gets a 409", async () => {
    const { agent, log, store } = await pausedChat();
    const { decisions } = fromUIMessages(approvalBody(true));

    const outcomes = await Promise.allSettled([resumeFromApproval(agent, store, { chatId: "chat-1", decisions }), resumeFromApproval(agent, store, { chatId: "chat-1", decisions })]);
    const won = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    await drain(won[0]!);

    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toBeInstanceOf(UIRequestError);
    expect(lost[0]!.reason.status).toBe(409);
    expect(lost[0]!.reason.message).toBe("Chat 'chat-1' has no run waiting for approval; another request resumed it already, or it never paused.");
    expect(log.map((c) => c.tool)).toEqual(["issue_refund"]);
  });

  it("rejects the call with the user's denial and runs nothing", async () => {
    const { agent, log, store } = await pausedChat();
    const { decisions } = fromUIMessages(approvalBody(false));

    const resumed = await drain(await resumeFromApproval(agent, store, { chatId: "chat-1", decisions }));
    const toolResult = resumed.find((e) => e.type === "toolResult") as { type: "toolResult"; result: { error: boolean } } | undefined;

    expect(toolResult?.result.error).toBe(true);
    expect(log).toEqual([]);
  });

  it("refuses decisions that do not fit the pending calls with a 422 and keeps the run paused", async () => {
    const { agent, log, store } = await pausedChat();
    const paused = store.get("chat-1");

    const error = (await rejectionOf(resumeFromApproval(agent, store, { chatId: "chat-1", decisions: { x9: { action: "confirm" } } }))) as UIRequestError;

    expect(error).toBeInstanceOf(UIRequestError);
    expect(error.status).toBe(422);
    expect(error.message).toBe("Chat 'chat-1' approval refused: Agent.run was given a decision for 'x9', which is not a call waiting for confirmation; pending calls: r1.");
    expect(store.get("chat-1")).toBe(paused);
    expect(log).toEqual([]);
  });

  it("refuses a snapshot changed in the store when the Agent signs its snapshots", async () => {
    const { agent, log, store } = await pausedChat();
    const paused = store.get("chat-1")!;
    store.set("chat-1", { ...paused, stepCount: paused.stepCount + 5 });

    const error = await rejectionOf(resumeFromApproval(agent, store, { chatId: "chat-1", decisions: { r1: { action: "confirm" } } }));

    expect(error).toBeInstanceOf(SnapshotError);
    expect(error.message).toBe("Agent.run was given a snapshot whose signature does not match its content: the snapshot was changed after it was signed, or signed with another key; resume only with a snapshot a stopped run produced, unchanged.");
    expect(log).toEqual([]);
  });
});
