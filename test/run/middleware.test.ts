import { type AgentSnapshot, BreakpointError, ChatMessage, type HookPoint, type Middleware, MiddlewareError, SnapshotError, snapshotOf } from "toolwright";
import { calls, deferred, lookupCall, question, refundCall, refundDesk, rejectionOf } from "../helpers/refundDesk";

const snapshotKey = "a-snapshot-key-of-at-least-32-bytes!";

describe("MiddlewareError", () => {
  it("names the middleware and the hook of a beforeModel that throws, keeps the cause, and carries a snapshot from before the model call", async () => {
    const cause = new TypeError("budget store unreachable");
    const { agent, model } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")] });
    const broken: Middleware = {
      name: "budget",
      beforeModel: ({ step }) => {
        if (step === 2) throw cause;
      },
    };

    const error = await rejectionOf(agent.run({ ...question(), middleware: [broken] }));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error).toMatchObject({ name: "MiddlewareError", middleware: "budget", hook: "beforeModel", cause, message: "Middleware 'budget' threw in beforeModel: budget store unreachable." });
    const snapshot = snapshotOf(error)!;
    expect((error as Error & { snapshot?: AgentSnapshot }).snapshot).toBe(snapshot);
    expect(snapshot).toMatchObject({ stepCount: 1, next: "chat_generator" });

    const resumed = await agent.run({ snapshot });

    expect(resumed.lastMessage.text).toBe("It can be refunded.");
    expect(model.requests).toHaveLength(2);
  });

  it("carries a snapshot from before the model call when afterModel rejects: resuming asks the model again", async () => {
    const { agent, model } = refundDesk({ script: [ChatMessage.fromAssistant("first answer"), ChatMessage.fromAssistant("second answer")] });
    const broken: Middleware = {
      name: "moderation",
      async afterModel() {
        await Promise.resolve();
        throw new Error("moderation service said 503");
      },
    };

    const error = await rejectionOf(agent.run({ ...question(), middleware: [broken] }));
    const resumed = await agent.run({ snapshot: snapshotOf(error)! });

    expect(error).toMatchObject({ middleware: "moderation", hook: "afterModel", message: "Middleware 'moderation' threw in afterModel: moderation service said 503." });
    expect(snapshotOf(error)).toMatchObject({ stepCount: 0, next: "chat_generator" });
    expect(resumed.messages.map((m) => m.text)).toEqual(["Refund order A-100, please.", "second answer"]);
    expect(model.requests).toHaveLength(2);
  });

  it("ends the run when beforeTool throws, synchronously or not, before any call of the step runs, with a snapshot at the tool step", async () => {
    const throwers: Middleware[] = [
      {
        name: "sync",
        beforeTool: () => {
          throw "policy file missing";
        },
      },
      { name: "async", beforeTool: async () => Promise.reject(new Error("policy file missing.")) },
    ];
    for (const thrower of throwers) {
      const { agent, log } = refundDesk({ script: [calls(lookupCall, refundCall)], middleware: [thrower] });

      const error = await rejectionOf(agent.run(question()));

      expect(error).toBeInstanceOf(MiddlewareError);
      expect(error).toMatchObject({ middleware: thrower.name, hook: "beforeTool", message: `Middleware '${thrower.name}' threw in beforeTool: policy file missing.` });
      expect(log).toEqual([]);
      // Nothing of the step has run: the snapshot continues at its calls.
      expect(snapshotOf(error)).toMatchObject({ stepCount: 1, next: "tool", toolStep: { replies: 1, decisions: {}, pending: [] } });
    }
  });

  // What each hook returned, and the message that refuses it.
  const notActions: Array<[HookPoint, unknown, string]> = [
    ["beforeModel", "skip", "returned string \"skip\" from beforeModel, which is not one of its actions; return an action object or nothing."],
    ["beforeModel", 42, "returned number 42 from beforeModel, which is not one of its actions; return an action object or nothing."],
    ["beforeModel", new Map(), "returned a Map from beforeModel, which is not one of its actions; return an action object or nothing."],
    ["beforeModel", { message: [] }, "returned an object with 'message' from beforeModel, which is not one of its actions; return nothing, { messages?: ChatMessage[], tools?: ToolSpec[], alongside?: (signal) => verdict } or { stop: { reason } }."],
    [
      "beforeModel",
      { messages: [{ role: "user", text: "hi" }] },
      "returned an object with 'messages' from beforeModel, which is not one of its actions; return nothing, { messages?: ChatMessage[], tools?: ToolSpec[], alongside?: (signal) => verdict } or { stop: { reason } }.",
    ],
    ["afterModel", { reject: "" }, "returned an object with 'reject' from afterModel, which is not one of its actions; return nothing, { replies: ChatMessage[] }, { reject: \"what to tell the model\" } or { stop: { reason } }."],
    ["afterModel", {}, "returned an empty object from afterModel, which is not one of its actions; return nothing, { replies: ChatMessage[] }, { reject: \"what to tell the model\" } or { stop: { reason } }."],
    [
      "beforeTool",
      { action: "deny" },
      "returned an object with 'action' from beforeTool, which is not one of its actions; return nothing, { action: \"confirm\" | \"reject\", feedback? } or { action: \"modify\", arguments: {...}, feedback? }, { action: \"pause\" } or { stop: { reason } } (a decision is { action: \"confirm\" | \"reject\", feedback? } or { action: \"modify\", arguments: {...}, feedback? }).",
    ],
    [
      "beforeTool",
      { action: "modify", args: { amount: 1 } },
      "returned an object with 'action', 'args' from beforeTool, which is not one of its actions; return nothing, { action: \"confirm\" | \"reject\", feedback? } or { action: \"modify\", arguments: {...}, feedback? }, { action: \"pause\" } or { stop: { reason } } (a modify decision has no 'args' field; a decision is { action: \"confirm\" | \"reject\", feedback? } or { action: \"modify\", arguments: {...}, feedback? }).",
    ],
    ["afterTool", { text: 42 }, "returned an object with 'text' from afterTool, which is not one of its actions; return nothing, { result?, text?: string } or { stop: { reason } }."],
    ["afterTool", "Refund queued.", "returned string \"Refund queued.\" from afterTool, which is not one of its actions; return an action object or nothing."],
    ["afterModel", { stop: {} }, "returned a stop in afterModel without a reason: return { stop: { reason: \"why\", details?: { ... } } }."],
    ["beforeTool", { stop: "fraud" }, "returned a stop in beforeTool without a reason: return { stop: { reason: \"why\", details?: { ... } } }."],
    ["afterTool", { stop: { reason: "limit", details: "over 100" } }, "returned a stop in afterTool whose details are string \"over 100\", not an object: return { stop: { reason: \"why\", details?: { ... } } }."],
  ];

  it.each(notActions)("refuses what %s returned (%p) with the hook's actions", async (hook, value, message) => {
    const { agent, log } = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("Done.")], middleware: [{ name: "sloppy", [hook]: async () => value }] });

    const error = await rejectionOf(agent.run(question()));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error).toMatchObject({ middleware: "sloppy", hook, message: `Middleware 'sloppy' ${message}` });
    if (hook === "beforeTool") expect(log).toEqual([]);
  });
});

describe("Middleware and the run's signal", () => {
  // A hook at each point that never settles; aborting the run ends the wait with an AbortError.
  const hanging: Array<[HookPoint, readonly unknown[]]> = [
    ["beforeModel", [ChatMessage.fromAssistant("unused")]],
    ["afterModel", [ChatMessage.fromAssistant("Done.")]],
    ["beforeTool", [calls(refundCall)]],
    ["afterTool", [calls(refundCall)]],
    ["afterRun", [ChatMessage.fromAssistant("Done.")]],
  ];

  it.each(hanging)("cuts a %s hook that never settles when the caller aborts the run", async (hook, script) => {
    const started = deferred<AbortSignal>();
    const { agent } = refundDesk({
      script: script as ChatMessage[],
      middleware: [{ name: "stuck", [hook]: ({ signal }: { signal: AbortSignal }) => (started.resolve(signal), new Promise(() => undefined)) }],
    });
    const controller = new AbortController();

    const run = agent.run({ ...question(), signal: controller.signal });
    const signal = await started.promise;
    controller.abort();
    const error = await rejectionOf(run);

    expect(error.name).toBe("AbortError");
    expect(signal.aborted).toBe(true);
  });
});

describe("Middleware snapshots with a snapshotKey", () => {
  it("signs a stop's snapshot, resumes it, and refuses it once changed", async () => {
    let stops = 0;
    const { agent, log } = refundDesk({
      snapshotKey,
      script: [calls(refundCall), ChatMessage.fromAssistant("Refunded.")],
      middleware: [{ name: "review", beforeTool: () => (stops++ === 0 ? { stop: { reason: "review refunds" } } : undefined) }],
    });

    const stopped = await agent.run(question());
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);
    const tampered = JSON.parse(JSON.stringify(stopped.snapshot)) as AgentSnapshot & { state: { customer_id: string } };
    tampered.state.customer_id = "c-8";

    const refused = await rejectionOf(agent.run({ snapshot: tampered }));
    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(stopped.snapshot.signature).toMatch(/^hmac-sha256:/);
    expect(refused).toBeInstanceOf(SnapshotError);
    expect(refused).toMatchObject({
      field: "signature",
      message: "Agent.run was given a snapshot whose signature does not match its content: the snapshot was changed after it was signed, or signed with another key; resume only with a snapshot a stopped run produced, unchanged.",
    });
    expect(resumed.exitReason).toBe("text");
    expect(log).toEqual([{ tool: "issue_refund", args: { orderId: "A-100", amount: 49, customerId: "c-7" } }]);
  });

  it("signs a pause's snapshot and the snapshot a throwing hook leaves", async () => {
    const paused = await refundDesk({ snapshotKey, script: [calls(refundCall)], middleware: [{ name: "approval", beforeTool: () => ({ action: "pause" }) }] }).agent.run(question());
    const error = await rejectionOf(
      refundDesk({
        snapshotKey,
        script: [],
        middleware: [
          {
            name: "broken",
            beforeModel: () => {
              throw new Error("down");
            },
          },
        ],
      }).agent.run(question()),
    );

    expect(paused.snapshot?.signature).toMatch(/^hmac-sha256:/);
    expect(snapshotOf(error)?.signature).toMatch(/^hmac-sha256:/);
  });
});

describe("Middleware among the run's features", () => {
  it("acts after the breakpoint: a breakpoint before the model call stops the run before beforeModel is asked", async () => {
    const asked: number[] = [];
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("Done.")], middleware: [{ name: "spy", beforeModel: ({ step }) => void asked.push(step) }] });

    const error = await rejectionOf(agent.run({ ...question(), breakpoint: { at: "chat_generator" } }));
    expect(error).toBeInstanceOf(BreakpointError);
    expect(asked).toEqual([]);
    await agent.run({ snapshot: snapshotOf(error)! });

    expect(asked).toEqual([1]);
  });

  it("hands onCheckpoint the positions around a middleware's change, and none for a stop", async () => {
    const checkpoints: Array<{ next: string; stepCount: number }> = [];
    let stops = 0;
    const { agent } = refundDesk({
      script: [calls(lookupCall), ChatMessage.fromAssistant("Done.")],
      middleware: [{ name: "budget", beforeModel: ({ step }) => (step === 2 && stops++ === 0 ? { stop: { reason: "pause here" } } : undefined) }],
    });

    const stopped = await agent.run({ ...question(), onCheckpoint: (s) => void checkpoints.push({ next: s.next, stepCount: s.stepCount }) });

    expect(stopped.exitReason).toBe("stopped");
    expect(checkpoints).toEqual([
      { next: "tool", stepCount: 1 },
      { next: "chat_generator", stepCount: 1 },
    ]);
  });
});
