import { ChatMessage, MiddlewareError, type AfterToolContext, type Middleware, snapshotOf, Tool } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { Agent } from "toolwright";
import { calls, lookupCall, question, refundCall, refundDesk, rejectionOf, transcript } from "../helpers/refundDesk";

describe("Middleware.afterTool", () => {
  it("replaces a call's result: outputsToState merges the new value and outputsToString renders it", async () => {
    const { agent, log } = refundDesk({
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [{ name: "fees", afterTool: ({ toolCall, result }) => (toolCall.toolName === "issue_refund" ? { result: { ...(result as object), amount: 45 } } : undefined) }],
    });

    const result = await agent.run(question());

    expect(log.map((entry) => entry.args.amount)).toEqual([49]);
    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 45 }]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Refunded 45 on A-100.", error: false });
  });

  it("replaces the text the model gets, leaving what is merged into state as the tool returned it", async () => {
    const { agent } = refundDesk({
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [{ name: "redact", afterTool: ({ toolCall }) => (toolCall.toolName === "issue_refund" ? { text: "Refund queued." } : undefined) }],
    });

    const result = await agent.run(question());

    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Refund queued.", error: false });
  });

  it("replaces the text of a failed call, which stays an error", async () => {
    const contexts: Array<Pick<AfterToolContext, "callKey" | "failed" | "result">> = [];
    const { agent } = refundDesk({
      script: [calls({ id: "x1", toolName: "refund_everything", arguments: {} }), ChatMessage.fromAssistant("Sorry.")],
      middleware: [
        {
          name: "friendly",
          afterTool({ callKey, failed, result }) {
            contexts.push({ callKey, failed, result });
            return failed ? { text: "That tool does not exist; use issue_refund." } : undefined;
          },
        },
      ],
    });

    const result = await agent.run(question());

    expect(contexts).toEqual([{ callKey: "x1", failed: true, result: undefined }]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "That tool does not exist; use issue_refund.", error: true });
  });

  it("refuses a result for a failed call with a MiddlewareError", async () => {
    const failing = new Tool({
      name: "charge",
      description: "Charge the card.",
      parameters: { type: "object", properties: {} },
      function: () => {
        throw new Error("card declined");
      },
    });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([toolCallReply(["charge", {}, "c1"])]),
      tools: [failing],
      middleware: [{ name: "fixer", afterTool: () => ({ result: "charged" }) }],
    });

    const error = await rejectionOf(agent.run({ messages: [ChatMessage.fromUser("Charge me.")] }));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("Middleware 'fixer' returned a result for the failed call 'c1' (charge); a failed call has none, so return { text } to change what the model gets.");
    expect(error).toMatchObject({ middleware: "fixer", hook: "afterTool" });
  });

  it("stops the run once the step's results are in: every call of the step runs, and resuming calls the model", async () => {
    let stops = 0;
    const told: string[] = [];
    const { agent, model, log } = refundDesk({
      script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded 49.")],
      middleware: [
        { name: "limit", afterTool: ({ toolCall }) => (toolCall.toolName === "lookup_order" && stops++ === 0 ? { stop: { reason: "order looked up", details: { order: "A-100" } } } : undefined) },
        { name: "spy", afterTool: ({ callKey }) => void told.push(callKey) },
      ],
    });

    const stopped = await agent.run(question());
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);

    expect(stopped.stopped).toEqual({ exitReason: "stopped", middleware: "limit", hook: "afterTool", reason: "order looked up", details: { order: "A-100" } });
    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
    // The stop ends the turn of the call it came from; the other calls are told as usual.
    expect(told).toEqual(["r1"]);
    expect(transcript(stopped.messages).slice(2)).toEqual([
      { role: "tool", text: '{"orderId":"A-100","paid":49}', error: false },
      { role: "tool", text: "Refunded 49 on A-100.", error: false },
    ]);
    expect(stopped.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(stopped.snapshot).toMatchObject({ stepCount: 1, next: "chat_generator" });
    expect(model.requests).toHaveLength(1);

    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(resumed.exitReason).toBe("text");
    expect(resumed.lastMessage.text).toBe("Refunded 49.");
    expect(model.requests).toHaveLength(2);
    expect(log).toHaveLength(2);
  });

  it("passes the next middleware the result an earlier one replaced, and merges the last", async () => {
    const seen: unknown[] = [];
    const { agent } = refundDesk({
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [
        { name: "round", afterTool: ({ result }) => ({ result: { ...(result as object), amount: 40 } }) },
        { name: "spy", afterTool: ({ result }) => void seen.push(result) },
      ],
    });

    const result = await agent.run(question());

    expect(seen).toEqual([{ orderId: "A-100", amount: 40 }]);
    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 40 }]);
  });

  it("carries no snapshot on a throw, except with raiseOnToolInvocationFailure: the one from before the step's calls", async () => {
    const thrower: Middleware = {
      name: "audit",
      async afterTool() {
        await Promise.resolve();
        throw new Error("audit log is down");
      },
    };
    const plain = refundDesk({ script: [calls(refundCall)], middleware: [thrower] });
    const raising = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], middleware: [thrower], raiseOnToolInvocationFailure: true });

    const plainError = await rejectionOf(plain.agent.run(question()));
    const raisingError = await rejectionOf(raising.agent.run(question()));

    for (const error of [plainError, raisingError]) {
      expect(error).toBeInstanceOf(MiddlewareError);
      expect(error.message).toBe("Middleware 'audit' threw in afterTool: audit log is down.");
    }
    expect(snapshotOf(plainError)).toBeUndefined();
    expect(snapshotOf(raisingError)).toMatchObject({ stepCount: 1, next: "tool" });
  });
});
