import { ChatMessage, type Middleware } from "toolwright";
import { calls, lookupCall, question, refundCall, refundDesk, transcript } from "../helpers/refundDesk";

// Rejects a text reply that promises anything, once per reply.
const noPromises: Middleware = {
  name: "tone",
  afterModel: ({ replies }) => (replies.some((r) => r.text?.includes("guarantee")) ? { reject: "Do not promise outcomes; say what happens next." } : undefined),
};

describe("Middleware.afterModel", () => {
  it("replaces the replies: the replacement joins the conversation and decides the step", async () => {
    const { agent, log } = refundDesk({
      script: [calls(refundCall)],
      middleware: [{ name: "read-only", afterModel: ({ replies }) => (replies[0]!.toolCalls.length > 0 ? { replies: [ChatMessage.fromAssistant("I can only look orders up.")] } : undefined) }],
    });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("text");
    expect(result.lastMessage.text).toBe("I can only look orders up.");
    expect(transcript(result.messages)).toEqual([
      { role: "user", text: "Refund order A-100, please." },
      { role: "assistant", text: "I can only look orders up." },
    ]);
    expect(log).toEqual([]);
  });

  it("rejects a text reply: the reply stays, a user message with meta.rejectedBy answers it, and the model is called again", async () => {
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("I guarantee a full refund."), ChatMessage.fromAssistant("Your refund request is with our team.")],
      middleware: [noPromises],
    });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("text");
    expect(result.stepCount).toBe(2);
    expect(transcript(result.messages)).toEqual([
      { role: "user", text: "Refund order A-100, please." },
      { role: "assistant", text: "I guarantee a full refund." },
      { role: "user", text: "Do not promise outcomes; say what happens next." },
      { role: "assistant", text: "Your refund request is with our team." },
    ]);
    expect(result.messages[2]!.meta).toEqual({ rejectedBy: "tone" });
    expect(model.requests[1]!.messages.map((m) => m.text)).toEqual(["Refund order A-100, please.", "I guarantee a full refund.", "Do not promise outcomes; say what happens next."]);
  });

  it("rejects a tool-call reply: each call is answered with an error tool message and none of them runs", async () => {
    const { agent, model, log } = refundDesk({
      script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("I will ask a person.")],
      middleware: [{ name: "no-tools", afterModel: ({ replies }) => (replies[0]!.toolCalls.length > 0 ? { reject: "Tools are switched off." } : undefined) }],
    });

    const result = await agent.run(question());

    expect(log).toEqual([]);
    expect(transcript(result.messages)).toEqual([
      { role: "user", text: "Refund order A-100, please." },
      { role: "assistant", toolCalls: ["lookup_order", "issue_refund"] },
      { role: "tool", text: "Tools are switched off.", error: true },
      { role: "tool", text: "Tools are switched off.", error: true },
      { role: "assistant", text: "I will ask a person." },
    ]);
    expect(result.messages.slice(2, 4).map((m) => [m.toolCallResult!.origin.id, m.meta])).toEqual([
      ["l1", { rejectedBy: "no-tools" }],
      ["r1", { rejectedBy: "no-tools" }],
    ]);
    expect(model.requests).toHaveLength(2);
    // Calls the model asked for whose answer is an error count as failed tool calls, though they never ran.
    expect(result.usage).toMatchObject({ modelCalls: 2, toolCalls: 2, failedToolCalls: 2 });
  });

  it("stops after a tool-call reply: the reply is kept, its calls wait, and resuming runs them before the next model call", async () => {
    let stops = 0;
    const { agent, model, log } = refundDesk({
      script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded 49 on A-100.")],
      middleware: [{ name: "review", afterModel: ({ replies }) => (replies[0]!.toolCalls.length > 0 && stops++ === 0 ? { stop: { reason: "a person reviews refunds", details: { calls: replies[0]!.toolCalls.length } } } : undefined) }],
    });

    const stopped = await agent.run(question());
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);

    expect(stopped.stopped).toEqual({ exitReason: "stopped", middleware: "review", hook: "afterModel", reason: "a person reviews refunds", details: { calls: 2 } });
    expect(stopped.stepCount).toBe(1);
    expect(stopped.lastMessage.toolCalls.map((c) => c.id)).toEqual(["l1", "r1"]);
    expect(stopped.snapshot).toMatchObject({ stepCount: 1, next: "tool" });
    expect(log).toEqual([]);

    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
    expect(resumed.exitReason).toBe("text");
    expect(resumed.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(model.requests).toHaveLength(2);
    expect(transcript(resumed.messages).slice(1)).toEqual([
      { role: "assistant", toolCalls: ["lookup_order", "issue_refund"] },
      { role: "tool", text: '{"orderId":"A-100","paid":49}', error: false },
      { role: "tool", text: "Refunded 49 on A-100.", error: false },
      { role: "assistant", text: "Refunded 49 on A-100." },
    ]);
  });

  it("stops after a text reply: the reply is kept and resuming calls the model again", async () => {
    let stops = 0;
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("Refunds take a week."), ChatMessage.fromAssistant("Refunds take five working days.")],
      middleware: [{ name: "fact-check", afterModel: () => (stops++ === 0 ? { stop: { reason: "check the refund time" } } : undefined) }],
    });

    const stopped = await agent.run(question());
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);
    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(stopped.lastMessage.text).toBe("Refunds take a week.");
    expect(stopped.stopped).toEqual({ exitReason: "stopped", middleware: "fact-check", hook: "afterModel", reason: "check the refund time" });
    expect(resumed.lastMessage.text).toBe("Refunds take five working days.");
    expect(model.requests).toHaveLength(2);
  });

  it("passes each middleware the replies the one before left, and ends the turn at the first reject", async () => {
    const seen: string[] = [];
    const { agent } = refundDesk({
      script: [ChatMessage.fromAssistant("draft"), ChatMessage.fromAssistant("final")],
      middleware: [
        { name: "polish", afterModel: ({ replies, step }) => (step === 1 ? { replies: replies.map((r) => ChatMessage.fromAssistant(`${r.text} I guarantee it.`)) } : undefined) },
        { name: "spy", afterModel: ({ replies }) => void seen.push(`spy: ${replies[0]!.text}`) },
        noPromises,
        { name: "after", afterModel: ({ replies }) => void seen.push(`after: ${replies[0]!.text}`) },
      ],
    });

    const result = await agent.run(question());

    expect(seen).toEqual(["spy: draft I guarantee it.", "spy: final", "after: final"]);
    expect(result.messages.map((m) => m.text)).toEqual([
      "Refund order A-100, please.",
      "draft I guarantee it.",
      "Do not promise outcomes; say what happens next.",
      "final",
    ]);
  });
});
