import { ChatMessage, DeferredConfirmationStrategy, type Middleware, type ToolCall } from "toolwright";
import { calls, lookupCall, question, refundCall, refundDesk, transcript } from "../helpers/refundDesk";

// Refunds above the limit are cut down to it.
const capRefunds: Middleware = {
  name: "cap",
  beforeTool: ({ toolCall, arguments: args }) =>
    toolCall.toolName === "issue_refund" && (args.amount as number) > 20 ? { action: "modify", arguments: { ...args, amount: 20 }, feedback: "refunds above 20 need a manager" } : undefined,
};

describe("Middleware.beforeTool", () => {
  it("modifies a call: the tool runs with the new arguments and the model is told what changed", async () => {
    const { agent, log } = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded 20.")], middleware: [capRefunds] });

    const result = await agent.run(question());

    expect(log).toEqual([{ tool: "issue_refund", args: { orderId: "A-100", amount: 20, customerId: "c-7" } }]);
    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 20 }]);
    const answer = result.messages[2]!;
    expect(answer.toolCallResult).toMatchObject({
      result: 'The user changed the arguments to {"orderId":"A-100","amount":20} (refunds above 20 need a manager). Result: Refunded 20 on A-100.',
      error: false,
      origin: { id: "r1", arguments: { orderId: "A-100", amount: 20 } },
    });
    expect(answer.meta).toEqual({ confirmation: { action: "modify", feedback: "refunds above 20 need a manager", modelArguments: { orderId: "A-100", amount: 49 } } });
  });

  it("validates modified arguments again: invalid ones fail the call with the tool-arguments error, and the tool does not run", async () => {
    const { agent, log } = refundDesk({
      script: [calls(refundCall), ChatMessage.fromAssistant("That did not work.")],
      middleware: [{ name: "typo", beforeTool: ({ arguments: args }) => ({ action: "modify", arguments: { ...args, amount: "twenty" } }) }],
    });

    const result = await agent.run(question());

    expect(log).toEqual([]);
    expect(result.messages[2]!.toolCallResult).toMatchObject({ result: "Tool 'issue_refund' was given invalid arguments by the user: amount must be number (got string \"twenty\"). The call did not run.", error: true });
    expect(result.usage).toMatchObject({ toolCalls: 1, failedToolCalls: 1 });
  });

  it("rejects a call: the tool does not run and the model gets the feedback", async () => {
    const { agent, log, model } = refundDesk({
      script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("A person will look at it.")],
      middleware: [{ name: "guard", beforeTool: ({ toolCall }) => (toolCall.toolName === "issue_refund" ? { action: "reject", feedback: "Refunds are paused today." } : undefined) }],
    });

    const result = await agent.run(question());

    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(transcript(model.requests[1]!.messages).slice(2)).toEqual([
      { role: "tool", text: '{"orderId":"A-100","paid":49}', error: false },
      { role: "tool", text: "Refunds are paused today.", error: true },
    ]);
    expect(result.messages[3]!.meta).toEqual({ confirmation: { action: "reject", feedback: "Refunds are paused today." } });
    expect(result.refunds).toBeUndefined();
  });

  it("confirms a call: it runs without asking a confirmation strategy that would defer it", async () => {
    const strategy = new DeferredConfirmationStrategy();
    const ask = jest.spyOn(strategy, "decide");
    const trusted: Middleware = { name: "trusted", beforeTool: ({ arguments: args }) => ((args.amount as number) <= 50 ? { action: "confirm" } : undefined) };
    const withMiddleware = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")], confirmationStrategies: { issue_refund: strategy }, middleware: [trusted] });
    const without = refundDesk({ script: [calls(refundCall)], confirmationStrategies: { issue_refund: strategy } });

    const confirmed = await withMiddleware.agent.run(question());
    expect(ask).not.toHaveBeenCalled();
    const paused = await without.agent.run(question());

    expect(confirmed.exitReason).toBe("text");
    expect(withMiddleware.log.map((entry) => entry.tool)).toEqual(["issue_refund"]);
    expect(paused.exitReason).toBe("confirmation_required");
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it("asks the confirmation strategies after the middleware, with the arguments a middleware modified; a person decides on the model's call", async () => {
    const strategy = new DeferredConfirmationStrategy();
    const ask = jest.spyOn(strategy, "decide");
    const { agent } = refundDesk({ script: [calls(refundCall)], confirmationStrategies: { "*": strategy }, middleware: [capRefunds] });

    const result = await agent.run(question());

    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask.mock.calls[0]![0].arguments).toEqual({ orderId: "A-100", amount: 20 });
    expect(result.pendingConfirmations).toEqual([{ toolCallId: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }]);
  });

  it("pauses for a person: confirmation_required before any call of the step runs, with the model's arguments pending", async () => {
    const { agent, log } = refundDesk({
      script: [calls(lookupCall, refundCall)],
      middleware: [capRefunds, { name: "approval", beforeTool: ({ toolCall }) => (toolCall.toolName === "issue_refund" ? { action: "pause" } : undefined) }],
    });

    const result = await agent.run(question());

    if (result.exitReason !== "confirmation_required") throw new Error(`confirmation_required expected, got ${result.exitReason}`);
    expect(result.pendingConfirmations).toEqual([{ toolCallId: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } }]);
    expect(log).toEqual([]);
    expect(result.snapshot).toMatchObject({ stepCount: 1, next: "tool" });
  });

  it("resumes a paused call with the person's decision, and asks the middleware again about the calls not decided", async () => {
    const asked: string[] = [];
    const { agent, log } = refundDesk({
      script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded 30.")],
      middleware: [
        {
          name: "approval",
          beforeTool({ toolCall }) {
            asked.push(toolCall.id!);
            return toolCall.toolName === "issue_refund" ? { action: "pause" } : undefined;
          },
        },
      ],
    });
    const paused = await agent.run(question());
    if (paused.exitReason !== "confirmation_required") throw new Error(`confirmation_required expected, got ${paused.exitReason}`);

    const resumed = await agent.run({ snapshot: paused.snapshot, decisions: { r1: { action: "modify", arguments: { orderId: "A-100", amount: 30 } } } });

    expect(asked).toEqual(["l1", "r1", "l1"]);
    expect(log).toEqual([
      { tool: "lookup_order", args: { orderId: "A-100", customerId: "c-7" } },
      { tool: "issue_refund", args: { orderId: "A-100", amount: 30, customerId: "c-7" } },
    ]);
    expect(resumed.exitReason).toBe("text");
    expect(resumed.refunds).toEqual([{ orderId: "A-100", amount: 30 }]);
  });

  it("stops before any call of the step runs, with a snapshot at the tool step; resuming runs the calls", async () => {
    let stops = 0;
    const { agent, model, log } = refundDesk({
      script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [{ name: "fraud", beforeTool: ({ toolCall, callKey }) => (toolCall.toolName === "issue_refund" && stops++ === 0 ? { stop: { reason: "fraud check", details: { call: callKey } } } : undefined) }],
    });

    const stopped = await agent.run(question());
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);

    expect(stopped.stopped).toEqual({ exitReason: "stopped", middleware: "fraud", hook: "beforeTool", reason: "fraud check", details: { call: "r1" } });
    expect(log).toEqual([]);
    expect(stopped.snapshot).toMatchObject({ stepCount: 1, next: "tool" });
    expect(stopped.usage).toMatchObject({ modelCalls: 1, toolCalls: 0 });

    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
    expect(resumed.exitReason).toBe("text");
    expect(resumed.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(model.requests).toHaveLength(2);
  });

  it("is not asked about calls to unknown tools or with invalid arguments, which fail as they would without it", async () => {
    const seen: Array<{ key: string; args: Readonly<Record<string, unknown>> }> = [];
    const unknown: ToolCall = { id: "x1", toolName: "delete_account", arguments: {} };
    const invalid: ToolCall = { id: "r2", toolName: "issue_refund", arguments: { orderId: "A-100", amount: -5 } };
    const { agent, log } = refundDesk({
      script: [calls(unknown, invalid, { toolName: "lookup_order", arguments: '{"orderId":"A-7"}' }), ChatMessage.fromAssistant("Done.")],
      middleware: [{ name: "spy", beforeTool: ({ callKey, arguments: args }) => void seen.push({ key: callKey, args }) }],
    });

    const result = await agent.run(question());

    expect(seen).toEqual([{ key: "#2", args: { orderId: "A-7" } }]);
    expect(Object.isFrozen(seen[0]!.args)).toBe(true);
    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(transcript(result.messages).slice(2, 4)).toEqual([
      { role: "tool", text: "Tool 'delete_account' not found. Available tools: lookup_order, issue_refund.", error: true },
      { role: "tool", text: "Tool 'issue_refund' was called with invalid arguments: amount must be >= 1 (got number -5). Call the tool again with corrected arguments.", error: true },
    ]);
  });

  it("shows later middleware the arguments an earlier one modified, and runs the call a later one confirms with them", async () => {
    const seen: unknown[] = [];
    const { agent, log } = refundDesk({
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [capRefunds, { name: "audit", beforeTool: ({ arguments: args }) => (seen.push(args), { action: "confirm" }) }],
    });

    await agent.run(question());

    expect(seen).toEqual([{ orderId: "A-100", amount: 20 }]);
    expect(log).toEqual([{ tool: "issue_refund", args: { orderId: "A-100", amount: 20, customerId: "c-7" } }]);
  });

  it("waits for an async hook before the call runs", async () => {
    const order: string[] = [];
    const { agent } = refundDesk({
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [
        {
          name: "slow-check",
          async beforeTool() {
            await new Promise((resolve) => setImmediate(resolve));
            order.push("checked");
            return { action: "confirm" };
          },
        },
      ],
      hooks: { onToolStart: () => void order.push("tool started") },
    });

    await agent.run(question());

    expect(order).toEqual(["checked", "tool started"]);
  });
});
