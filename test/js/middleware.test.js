// Middleware written in plain JavaScript, against the built package: nothing checks its return
// values at compile time, so the run must. Runs in the "js" Jest project (`toolwright` is dist/).
"use strict";

const { Agent, ChatMessage, ConfigurationError, MiddlewareError, Tool } = require("toolwright");
const { ScriptedChatGenerator } = require("toolwright/testing");

function refundAgent(middleware, ran) {
  const refund = new Tool({
    name: "issue_refund",
    description: "Refund an order.",
    parameters: { type: "object", properties: { orderId: { type: "string" }, amount: { type: "number" } }, required: ["orderId", "amount"] },
    function: (args) => {
      ran.push(args);
      return "refunded";
    },
  });
  const model = new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 900 } }] }),
    ChatMessage.fromAssistant("Done."),
  ]);
  return new Agent({ chatGenerator: model, tools: [refund], middleware });
}

async function rejectionOf(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("Middleware from plain JavaScript", () => {
  it("runs a guard that rejects, and refuses a typo'd action, a string and a nameless middleware before anything runs", async () => {
    const ran = [];
    const guard = { name: "limit", beforeTool: ({ arguments: args }) => (args.amount > 100 ? { action: "reject", feedback: "Refunds over 100 need a manager." } : undefined) };
    const guarded = await refundAgent([guard], ran).run({ messages: [ChatMessage.fromUser("Refund A-100.")] });

    const typo = await rejectionOf(refundAgent([{ name: "limit", beforeTool: () => ({ action: "deny" }) }], ran).run({ messages: [ChatMessage.fromUser("Refund A-100.")] }));
    const text = await rejectionOf(refundAgent([{ name: "budget", beforeModel: async () => "stop" }], ran).run({ messages: [ChatMessage.fromUser("Refund A-100.")] }));
    let nameless;
    try {
      refundAgent([{ beforeTool: guard.beforeTool }], ran);
    } catch (error) {
      nameless = error;
    }

    expect(guarded.messages[2].toolCallResult).toMatchObject({ result: "Refunds over 100 need a manager.", error: true });
    expect(typo).toBeInstanceOf(MiddlewareError);
    expect(typo.message).toBe(
      'Middleware \'limit\' returned an object with \'action\' from beforeTool, which is not one of its actions; return nothing, { action: "confirm" | "reject", feedback? } or { action: "modify", arguments: {...}, feedback? }, { action: "pause" } or { stop: { reason } } (a decision is { action: "confirm" | "reject", feedback? } or { action: "modify", arguments: {...}, feedback? }).',
    );
    expect(typo).toMatchObject({ middleware: "limit", hook: "beforeTool" });
    expect(text).toBeInstanceOf(MiddlewareError);
    expect(text.message).toBe('Middleware \'budget\' returned string "stop" from beforeModel, which is not one of its actions; return an action object or nothing.');
    expect(nameless).toBeInstanceOf(ConfigurationError);
    expect(nameless.message).toBe('Agent has middleware[0] without a name (1-64 characters); errors and stops name it, so give it one: { name: "budget", ... }.');
    // No refund ran: the guard rejected it, and the typo'd action ended the run before the call.
    expect(ran).toEqual([]);
  });
});
