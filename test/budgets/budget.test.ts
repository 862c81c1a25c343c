import { z } from "zod";
import { Agent, budget, ChatMessage, type ToolCall, DeferredConfirmationStrategy, MiddlewareError } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { calls, deskState, deskTools, lookupCall, question, refundCall, refundDesk, rejectionOf, type CallLog } from "../helpers/refundDesk";

/** An assistant reply making these calls, as a provider that reports 1,000 prompt and 200 completion tokens would. */
function metered(...toolCalls: ToolCall[]): ChatMessage {
  return ChatMessage.fromAssistant(undefined, { toolCalls, meta: { usage: { promptTokens: 1000, completionTokens: 200 } } });
}

const answer = () => ChatMessage.fromAssistant("Refunded 49.", { meta: { usage: { promptTokens: 1000, completionTokens: 200 } } });
const secondLookup: ToolCall = { id: "l2", toolName: "lookup_order", arguments: { orderId: "A-101" } };

describe("budget", () => {
  // Each model call reports 1,000 input and 200 output tokens: a limit the second call reaches stops
  // the run before the third; one it overshoots stops it after the second step's tool call.
  it.each([
    ["maxModelCalls", { maxModelCalls: 2 }, "beforeModel", { budget: "modelCalls", limit: 2, used: 2 }],
    ["maxInputTokens", { maxInputTokens: 1500 }, "afterTool", { budget: "inputTokens", limit: 1500, used: 2000 }],
    ["maxOutputTokens", { maxOutputTokens: 400 }, "beforeModel", { budget: "outputTokens", limit: 400, used: 400 }],
    ["maxTotalTokens", { maxTotalTokens: 2400 }, "beforeModel", { budget: "totalTokens", limit: 2400, used: 2400 }],
  ] as const)("stops the run once %s runs out, at %s, with the figures in details", async (_, limits, hook, details) => {
    const { agent, model, log } = refundDesk({ script: [metered(lookupCall), metered(secondLookup), answer()], middleware: [budget(limits)] });

    const result = await agent.run(question());
    if (result.exitReason !== "budget_exhausted") throw new Error(`budget_exhausted expected, got ${result.exitReason}`);

    expect(result.stopped).toEqual({ exitReason: "budget_exhausted", middleware: "budget", hook, reason: `${details.budget} budget exhausted`, details });
    expect(model.requests).toHaveLength(2);
    expect(log.map((entry) => entry.args.orderId)).toEqual(["A-100", "A-101"]);
    expect(result.snapshot).toMatchObject({ stepCount: 2, next: "chat_generator" });
  });

  it("prices the run's tokens for the chat generator's model and stops once the cost reaches maxCost", async () => {
    const model = new ScriptedChatGenerator([metered(lookupCall), metered(secondLookup), answer()]);
    const log: CallLog = [];
    const spend = budget({ maxCost: { amount: 0.006, model, prices: { scripted: { input: 2, output: 8 }, "gpt-4o": { input: 2.5, output: 10 } } } });
    const agent = new Agent({ chatGenerator: model, tools: deskTools(log), stateSchema: deskState, middleware: [spend] });

    const result = await agent.run(question());
    if (result.exitReason !== "budget_exhausted") throw new Error(`budget_exhausted expected, got ${result.exitReason}`);

    // Two calls of 1,000 input (2 per 1M) and 200 output tokens (8 per 1M): 2 × 0.0036 = 0.0072.
    expect(result.stopped.details).toEqual({ budget: "cost", limit: 0.006, used: 0.0072 });
    expect(result.stopped.hook).toBe("afterTool");
    expect(model.requests).toHaveLength(2);
  });

  it("stops a run mid-step once the step's results are in, and the snapshot completes the run once the budget is raised", async () => {
    const spend = budget({ maxToolCalls: 1 });
    const { agent, model, log } = refundDesk({ script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("Refunded 49.")], middleware: [spend] });

    const stopped = await agent.run(question());
    if (stopped.exitReason !== "budget_exhausted") throw new Error(`budget_exhausted expected, got ${stopped.exitReason}`);

    expect(stopped.stopped).toEqual({ exitReason: "budget_exhausted", middleware: "budget", hook: "afterTool", reason: "toolCalls budget exhausted", details: { budget: "toolCalls", limit: 1, used: 2 } });
    // Every call of the step ran and is recorded; the next model call waits for the resume.
    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order", "issue_refund"]);
    expect(stopped.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
    expect(stopped.usage).toMatchObject({ modelCalls: 1, toolCalls: 2 });
    expect(stopped.snapshot).toMatchObject({ stepCount: 1, next: "chat_generator" });

    const again = await agent.run({ snapshot: stopped.snapshot });
    expect(again).toMatchObject({ exitReason: "budget_exhausted", stopped: { hook: "beforeModel", details: { budget: "toolCalls", limit: 1, used: 2 } } });
    expect(model.requests).toHaveLength(1);

    spend.setLimits({ maxToolCalls: 5 });
    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(resumed.exitReason).toBe("text");
    expect(resumed.lastMessage.text).toBe("Refunded 49.");
    expect(resumed.usage).toMatchObject({ modelCalls: 2, toolCalls: 2 });
    expect(log).toHaveLength(2);
  });

  it("resumes under a new budget passed to run({ middleware })", async () => {
    const { agent } = refundDesk({ script: [metered(lookupCall), answer()] });

    const stopped = await agent.run({ ...question(), middleware: [budget({ maxTotalTokens: 1000 })] });
    expect(stopped).toMatchObject({ exitReason: "budget_exhausted", stopped: { details: { budget: "totalTokens", limit: 1000, used: 1200 } } });
    if (stopped.exitReason !== "budget_exhausted") throw new Error("budget_exhausted expected");

    const resumed = await agent.run({ snapshot: stopped.snapshot, middleware: [budget({ maxTotalTokens: 5000 })] });

    expect(resumed.exitReason).toBe("text");
    expect(resumed.usage).toMatchObject({ totalTokens: 2400, modelCalls: 2 });
  });

  it("counts what the run used before a pause for confirmation against the budget after the resume", async () => {
    const { agent, model } = refundDesk({
      script: [metered(refundCall), metered(secondLookup), answer()],
      confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() },
      middleware: [budget({ maxInputTokens: 2000 })],
    });

    const paused = await agent.run(question());
    if (paused.exitReason !== "confirmation_required") throw new Error(`confirmation_required expected, got ${paused.exitReason}`);
    const resumed = await agent.run({ snapshot: paused.snapshot, decisions: { r1: { action: "confirm" } } });

    expect(resumed).toMatchObject({ exitReason: "budget_exhausted", stopped: { hook: "beforeModel", details: { budget: "inputTokens", limit: 2000, used: 2000 } } });
    expect(model.requests).toHaveLength(2);
  });

  it("counts active run time for maxWallClockMs across a pause, leaving out the time the run waited", async () => {
    let clock = 0;
    const log: CallLog = [];
    const tools = deskTools(log);
    const slow = (ms: number) => () => {
      clock += ms;
      return [metered(refundCall)][0]!;
    };
    const model = new ScriptedChatGenerator([slow(30), () => ((clock += 20), metered(secondLookup)), () => ((clock += 20), answer())]);
    const agent = new Agent({
      chatGenerator: model,
      tools,
      stateSchema: { ...deskState, budget_elapsed_ms: { type: z.number() } },
      confirmationStrategies: { issue_refund: new DeferredConfirmationStrategy() },
      middleware: [budget({ maxWallClockMs: 45, elapsedStateKey: "budget_elapsed_ms", now: () => clock })],
    });

    const paused = await agent.run(question());
    if (paused.exitReason !== "confirmation_required") throw new Error(`confirmation_required expected, got ${paused.exitReason}`);
    expect(paused.budget_elapsed_ms).toBe(30);

    clock += 10_000; // a person takes their time: not run time
    const resumed = await agent.run({ snapshot: paused.snapshot, decisions: { r1: { action: "confirm" } } });

    expect(resumed).toMatchObject({ exitReason: "budget_exhausted", stopped: { hook: "afterTool", details: { budget: "wallClockMs", limit: 45, used: 50 } } });
    expect(resumed.budget_elapsed_ms).toBe(50);
    expect(model.requests).toHaveLength(2);
  });

  it("counts wall-clock time from the start of each run call without elapsedStateKey", async () => {
    let clock = 1_000;
    const { agent } = refundDesk({
      script: [() => ((clock += 40), metered(lookupCall)), () => ((clock += 40), answer())],
      middleware: [budget({ maxWallClockMs: 30, now: () => clock })],
    });

    const stopped = await agent.run(question());
    expect(stopped).toMatchObject({ exitReason: "budget_exhausted", stopped: { hook: "afterTool", details: { budget: "wallClockMs", limit: 30, used: 40 } } });
    if (stopped.exitReason !== "budget_exhausted") throw new Error("budget_exhausted expected");

    // The resumed run's clock starts at 0: it is spent (40 > 30) only once its model call has answered, and that answer ends the run.
    const resumed = await agent.run({ snapshot: stopped.snapshot });
    expect(resumed.exitReason).toBe("text");
  });

  it("lets an exit-condition tool end a run whose step lands exactly on a limit", async () => {
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([calls(refundCall)]),
      tools: deskTools([]),
      stateSchema: deskState,
      exitConditions: ["issue_refund"],
      middleware: [budget({ maxToolCalls: 1 })],
    });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("issue_refund");
  });

  it("keeps the runs that share one budget apart", async () => {
    const spend = budget({ maxToolCalls: 2 });
    const first = refundDesk({ script: [calls(lookupCall), calls(secondLookup), answer()], middleware: [spend] });
    const second = refundDesk({ script: [calls(lookupCall), answer()], middleware: [spend] });

    const [a, b] = await Promise.all([first.agent.run(question()), second.agent.run(question())]);

    expect(a).toMatchObject({ exitReason: "budget_exhausted", stopped: { details: { budget: "toolCalls", limit: 2, used: 2 } } });
    expect(b.exitReason).toBe("text");
  });

  it("fails the run with a MiddlewareError when elapsedStateKey is not in the stateSchema", async () => {
    const { agent } = refundDesk({ script: [answer()], middleware: [budget({ maxWallClockMs: 5000, elapsedStateKey: "elapsed" })] });

    const error = await rejectionOf(agent.run(question()));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect((error as Error & { cause: Error }).cause.message).toBe(
      "Budget 'budget' option elapsedStateKey names 'elapsed', which the Agent's stateSchema does not declare; declare it as a number (elapsed: { type: z.number() }).",
    );
  });
});
