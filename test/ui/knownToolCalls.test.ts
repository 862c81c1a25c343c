import { readUIMessageStream, type UIMessage } from "ai";
import { ChatMessage, DeferredConfirmationStrategy } from "toolwright";
import { toUIMessageStream } from "toolwright/ui";
import { calls, question, refundCall, refundDesk } from "../helpers/refundDesk";

// What useChat holds after the person rejected the refund: the call, answered.
const answered: UIMessage = {
  id: "reply",
  role: "assistant",
  parts: [
    { type: "step-start" },
    { type: "tool-issue_refund", toolCallId: "r1", state: "approval-responded", input: { orderId: "A-100", amount: 49 }, approval: { id: "r1", approved: false, reason: "Not today." } },
  ],
};

async function continued(knownToolCalls: readonly string[] | undefined): Promise<UIMessage["parts"]> {
  const { agent } = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("I did not refund A-100.")], confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() } });
  const paused = await agent.run(question());
  if (paused.exitReason !== "confirmation_required") throw new Error(`confirmation_required expected, got ${paused.exitReason}`);
  const stream = toUIMessageStream(agent.stream({ snapshot: paused.snapshot, decisions: { r1: { action: "reject", feedback: "Not today." } } }), knownToolCalls ? { knownToolCalls } : {});
  let message: UIMessage | undefined = structuredClone(answered);
  for await (const next of readUIMessageStream({ message, stream })) message = next;
  return message!.parts;
}

describe("ToUIMessageStreamOptions.knownToolCalls", () => {
  it("sends only the outcome of a call the page already shows, so useChat updates that part", async () => {
    const parts = await continued(["r1"]);

    const refunds = parts.filter((p) => p.type === "tool-issue_refund");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ toolCallId: "r1", state: "output-error" });
    expect(parts.at(-1)).toMatchObject({ type: "text", text: "I did not refund A-100." });
  });

  it("without it, useChat shows the resumed call a second time beside the answered one", async () => {
    const parts = await continued(undefined);

    expect(parts.filter((p) => p.type === "tool-issue_refund").map((p) => (p as { state: string }).state)).toEqual(["approval-responded", "output-error"]);
  });
});
