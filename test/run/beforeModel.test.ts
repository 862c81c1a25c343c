import { ChatMessage, type BeforeModelContext, type Middleware } from "toolwright";
import { calls, lookupCall, question, refundDesk, transcript } from "../helpers/refundDesk";

// A budget of model calls: stops the run before the call that would exceed it.
function modelCallBudget(limit: { calls: number }, asked: number[] = []): Middleware {
  return {
    name: "budget",
    beforeModel({ usage, step }) {
      asked.push(step);
      if (usage.modelCalls >= limit.calls) return { stop: { reason: "model-call budget spent", details: { limit: limit.calls, used: usage.modelCalls } } };
      return undefined;
    },
  };
}

describe("Middleware.beforeModel", () => {
  it("sends the changed messages and tools to the model, and keeps the conversation in state as it was", async () => {
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("Order A-100 can be refunded.")],
      systemPrompt: "You help with refunds.",
      middleware: [
        {
          name: "trim",
          beforeModel: ({ messages, tools }) => ({
            messages: [ChatMessage.fromSystem("Answer in one sentence."), ...messages.filter((m) => m.role !== "system")],
            tools: tools.filter((t) => t.name === "lookup_order"),
          }),
        },
      ],
    });

    const result = await agent.run(question());

    expect(transcript(model.requests[0]!.messages)).toEqual([
      { role: "system", text: "Answer in one sentence." },
      { role: "user", text: "Refund order A-100, please." },
    ]);
    expect(model.requests[0]!.tools?.map((t) => t.name)).toEqual(["lookup_order"]);
    expect(transcript(result.messages)).toEqual([
      { role: "system", text: "You help with refunds." },
      { role: "user", text: "Refund order A-100, please." },
      { role: "assistant", text: "Order A-100 can be refunded." },
    ]);
    expect(result.exitReason).toBe("text");
  });

  it("sends what the conversation holds when a hook changes only the tools", async () => {
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("No tools today.")],
      middleware: [{ name: "no-tools", beforeModel: () => ({ tools: [] }) }],
    });

    await agent.run(question());

    expect(transcript(model.requests[0]!.messages)).toEqual([{ role: "user", text: "Refund order A-100, please." }]);
    expect(model.requests[0]!.tools).toEqual([]);
  });

  it("ends the run with the exitReason a stop names (budget_exhausted, guardrail_tripped), and refuses any other", async () => {
    for (const exitReason of ["budget_exhausted", "guardrail_tripped"] as const) {
      const { agent } = refundDesk({
        script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")],
        middleware: [{ name: "cap", beforeModel: ({ usage }) => (usage.modelCalls >= 1 ? { stop: { reason: "one call", exitReason } } : undefined) }],
      });
      const result = await agent.run(question());
      expect(result.exitReason).toBe(exitReason);
      expect(result.stopped).toEqual({ exitReason, middleware: "cap", hook: "beforeModel", reason: "one call" });
      expect(result.snapshot).toMatchObject({ stepCount: 1, next: "chat_generator" });
    }
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("ok")], middleware: [{ name: "cap", beforeModel: () => ({ stop: { reason: "no", exitReason: "text" } }) } as unknown as Middleware] });
    await expect(agent.run(question())).rejects.toThrow(
      "Middleware 'cap' returned a stop in beforeModel with exitReason string \"text\"; a stop ends the run as \"stopped\" (the default), \"budget_exhausted\" or \"guardrail_tripped\".",
    );
  });

  it("stops the run before the model call: exitReason 'stopped', the stop with its details, and a snapshot", async () => {
    const { agent, model, log } = refundDesk({
      script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")],
      middleware: [modelCallBudget({ calls: 1 })],
    });

    const result = await agent.run(question());

    if (result.exitReason !== "stopped") throw new Error(`stopped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({ exitReason: "stopped", middleware: "budget", hook: "beforeModel", reason: "model-call budget spent", details: { limit: 1, used: 1 } });
    expect(result.stepCount).toBe(1);
    expect(model.requests).toHaveLength(1);
    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(result.lastMessage.toolCallResult?.result).toBe('{"orderId":"A-100","paid":49}');
    expect(result.snapshot).toMatchObject({ stepCount: 1, next: "chat_generator" });
    expect(result.usage).toMatchObject({ modelCalls: 1, toolCalls: 1 });
  });

  it("resumes a stopped run with the model call it stopped before, asking the middleware again", async () => {
    const limit = { calls: 1 };
    const asked: number[] = [];
    const { agent, model } = refundDesk({
      script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")],
      middleware: [modelCallBudget(limit, asked)],
    });
    const stopped = await agent.run(question());
    if (stopped.exitReason !== "stopped") throw new Error(`stopped expected, got ${stopped.exitReason}`);

    const again = await agent.run({ snapshot: stopped.snapshot });
    limit.calls = 2;
    const resumed = await agent.run({ snapshot: stopped.snapshot });

    expect(again.exitReason).toBe("stopped");
    expect(resumed.exitReason).toBe("text");
    expect(resumed.lastMessage.text).toBe("It can be refunded.");
    expect(resumed.stepCount).toBe(2);
    expect(resumed.usage).toMatchObject({ modelCalls: 2, toolCalls: 1 });
    expect(model.requests).toHaveLength(2);
    expect(transcript(model.requests[1]!.messages).map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(asked).toEqual([1, 2, 2, 2]);
  });

  it("waits for an async hook and sends what it resolves to", async () => {
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("Done.")],
      middleware: [
        {
          name: "context",
          async beforeModel({ messages }) {
            const facts = await new Promise<string>((resolve) => setImmediate(() => resolve("Customer c-7 is a gold member.")));
            return { messages: [ChatMessage.fromSystem(facts), ...messages] };
          },
        },
      ],
    });

    await agent.run(question());

    expect(model.requests[0]!.messages.map((m) => m.text)).toEqual(["Customer c-7 is a gold member.", "Refund order A-100, please."]);
  });

  it("runs the Agent's middleware, then the run's, each seeing the change of the one before", async () => {
    const seen: Array<{ name: string; texts: Array<string | undefined>; tools: string[] }> = [];
    const record = (name: string, context: BeforeModelContext) => seen.push({ name, texts: context.messages.map((m) => m.text), tools: context.tools.map((t) => t.name) });
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("Done.")],
      middleware: [
        {
          name: "first",
          beforeModel(context) {
            record("first", context);
            return { messages: [ChatMessage.fromSystem("first"), ...context.messages] };
          },
        },
        {
          name: "second",
          beforeModel(context) {
            record("second", context);
            return { tools: context.tools.slice(0, 1) };
          },
        },
      ],
    });

    await agent.run({
      ...question(),
      middleware: [
        {
          name: "third",
          beforeModel(context) {
            record("third", context);
            return undefined;
          },
        },
      ],
    });

    expect(seen).toEqual([
      { name: "first", texts: ["Refund order A-100, please."], tools: ["lookup_order", "issue_refund"] },
      { name: "second", texts: ["first", "Refund order A-100, please."], tools: ["lookup_order", "issue_refund"] },
      { name: "third", texts: ["first", "Refund order A-100, please."], tools: ["lookup_order"] },
    ]);
    expect(model.requests[0]!.messages.map((m) => m.text)).toEqual(["first", "Refund order A-100, please."]);
  });

  it("ends the turn at the first stop: later middleware are not asked and the stop names the first", async () => {
    const asked: string[] = [];
    const stopper = (name: string): Middleware => ({
      name,
      beforeModel() {
        asked.push(name);
        return { stop: { reason: `${name} says stop` } };
      },
    });
    const { agent, model } = refundDesk({ script: [], middleware: [{ name: "quiet", beforeModel: () => void asked.push("quiet") }, stopper("guard"), stopper("budget")] });

    const result = await agent.run(question());

    expect(asked).toEqual(["quiet", "guard"]);
    expect(result.stopped).toEqual({ exitReason: "stopped", middleware: "guard", hook: "beforeModel", reason: "guard says stop" });
    expect(result.stepCount).toBe(0);
    expect(model.requests).toHaveLength(0);
  });

  it("tells the hook the run's id, the Agent's name, the step, the usage so far, the live state and the run's signal", async () => {
    const contexts: Array<Omit<BeforeModelContext, "messages" | "tools" | "state" | "signal" | "callModel"> & { customer: unknown; aborted: boolean }> = [];
    const { agent } = refundDesk({
      name: "refund-desk",
      script: [calls(lookupCall), ChatMessage.fromAssistant("Done.")],
      middleware: [
        {
          name: "spy",
          beforeModel: ({ runId, agentName, step, usage, state, signal }) => void contexts.push({ runId, agentName, step, usage, customer: state.get("customer_id"), aborted: signal.aborted }),
        },
      ],
    });

    await agent.run({ ...question(), runId: "run-42" });

    expect(contexts).toEqual([
      { runId: "run-42", agentName: "refund-desk", step: 1, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, toolCalls: 0, failedToolCalls: 0, toolCallsByName: {} }, customer: "c-7", aborted: false },
      { runId: "run-42", agentName: "refund-desk", step: 2, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 1, toolCalls: 1, failedToolCalls: 0, toolCallsByName: { lookup_order: 1 } }, customer: "c-7", aborted: false },
    ]);
  });
});
