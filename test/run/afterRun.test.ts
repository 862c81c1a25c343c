import { ChatMessage, type Middleware, MiddlewareError, type RunResultLike, snapshotOf } from "toolwright";
import { calls, lookupCall, question, refundCall, refundDesk, rejectionOf } from "../helpers/refundDesk";

describe("Middleware.afterRun", () => {
  it("replaces the run's result with the one it returns", async () => {
    const { agent } = refundDesk({
      script: [ChatMessage.fromAssistant("Your card ends in 4242.")],
      middleware: [
        {
          name: "redact",
          afterRun: ({ result }) => ({ result: { ...result, lastMessage: ChatMessage.fromAssistant(result.lastMessage.text!.replace(/\d{4}/, "****")), reviewed: true } }),
        },
      ],
    });

    const result = await agent.run(question());

    expect(result.lastMessage.text).toBe("Your card ends in ****.");
    expect((result as unknown as { reviewed: boolean }).reviewed).toBe(true);
    expect(result.messages.at(-1)!.text).toBe("Your card ends in 4242.");
    expect(result.exitReason).toBe("text");
  });

  it("hands each middleware the result the one before returned, the Agent's before the run's", async () => {
    const seen: Array<[string, unknown]> = [];
    const tag = (name: string): Middleware => ({
      name,
      afterRun({ result }) {
        seen.push([name, result.tags]);
        return { result: { ...result, tags: [...((result.tags as string[] | undefined) ?? []), name] } };
      },
    });
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("Done.")], middleware: [tag("agent")] });

    const result = await agent.run({ ...question(), middleware: [{ name: "quiet", afterRun: () => undefined }, tag("run")] });

    expect(seen).toEqual([
      ["agent", undefined],
      ["run", ["agent"]],
    ]);
    expect((result as unknown as { tags: string[] }).tags).toEqual(["agent", "run"]);
  });

  it("sees a paused run's result, with its pending calls and snapshot", async () => {
    const results: RunResultLike[] = [];
    const { agent } = refundDesk({
      script: [calls(refundCall)],
      middleware: [{ name: "approval", beforeTool: () => ({ action: "pause" }), afterRun: ({ result }) => void results.push(result) }],
    });

    const paused = await agent.run(question());

    expect(results).toHaveLength(1);
    expect(results[0]).toBe(paused);
    expect(results[0]).toMatchObject({ exitReason: "confirmation_required", pendingConfirmations: [{ toolCallId: "r1" }], snapshot: { next: "tool" } });
  });

  it("sees a stopped run's result, with the stop and its snapshot, and the usage of the whole run", async () => {
    const results: RunResultLike[] = [];
    const { agent } = refundDesk({
      script: [calls(lookupCall)],
      middleware: [{ name: "budget", beforeModel: ({ step }) => (step > 1 ? { stop: { reason: "one call only" } } : undefined), afterRun: ({ result, usage }) => void results.push({ ...result, usage }) }],
    });

    await agent.run(question());

    expect(results[0]).toMatchObject({
      exitReason: "stopped",
      stopped: { exitReason: "stopped", middleware: "budget", hook: "beforeModel", reason: "one call only" },
      snapshot: { next: "chat_generator" },
      usage: { modelCalls: 1, toolCalls: 1 },
    });
  });

  it("is not called when the run throws", async () => {
    const afterRun = jest.fn();
    const { agent } = refundDesk({ script: [], middleware: [{ name: "audit", afterRun }] });

    const error = await rejectionOf(agent.run(question()));

    expect(error.message).toBe("ScriptedChatGenerator received call 1, but its script has 0 entries; add an entry for every model call the run makes.");
    expect(afterRun).not.toHaveBeenCalled();
  });

  it("refuses a return that is not a run result with a MiddlewareError naming the middleware", async () => {
    const returns: unknown[] = ["done", { result: "done" }, { result: { exitReason: "text" } }, { exitReason: "text", messages: [] }];
    const messages: string[] = [];
    for (const value of returns) {
      const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("Done.")], middleware: [{ name: "wrap", afterRun: () => value as never }] });
      const error = await rejectionOf(agent.run(question()));
      expect(error).toBeInstanceOf(MiddlewareError);
      expect(error).toMatchObject({ middleware: "wrap", hook: "afterRun" });
      messages.push(error.message);
    }

    expect(messages).toEqual([
      "Middleware 'wrap' returned string \"done\" from afterRun, which is not one of its actions; return nothing or { result } with a run result (exitReason, messages, …).",
      "Middleware 'wrap' returned an object with 'result' from afterRun, which is not one of its actions; return nothing or { result } with a run result (exitReason, messages, …).",
      "Middleware 'wrap' returned an object with 'result' from afterRun, which is not one of its actions; return nothing or { result } with a run result (exitReason, messages, …).",
      "Middleware 'wrap' returned an object with 'exitReason', 'messages' from afterRun, which is not one of its actions; return nothing or { result } with a run result (exitReason, messages, …).",
    ]);
  });

  it("turns a throw into a MiddlewareError with the cause and no snapshot: the run itself was over", async () => {
    const cause = new Error("the audit log is full.");
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("Done.")], middleware: [{ name: "audit", afterRun: () => Promise.reject(cause) }] });

    const error = await rejectionOf(agent.run(question()));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe("Middleware 'audit' threw in afterRun: the audit log is full.");
    expect(error).toMatchObject({ name: "MiddlewareError", middleware: "audit", hook: "afterRun", cause });
    expect(snapshotOf(error)).toBeUndefined();
  });
});
