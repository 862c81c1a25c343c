import { ChatMessage, ConfigurationError, denyPatterns, type Guardrail, type GuardrailVerdict, GuardrailError, inputGuardrail, MiddlewareError } from "toolwright";
import { calls, lookupCall, question, refundDesk, rejectionOf, thrownBy, transcript } from "../helpers/refundDesk";

/** A guardrail that gives `verdict` for every input and records the texts it was asked about. */
function fixed(verdict: GuardrailVerdict): Guardrail & { seen: string[] } {
  const seen: string[] = [];
  return { name: "topic", seen, check: ({ text }) => (seen.push(text), verdict) };
}

describe("inputGuardrail", () => {
  it("passes the input through unchanged and checks each user message once per run", async () => {
    const guardrail = fixed({ pass: true });
    const { agent, model } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")], middleware: [inputGuardrail(guardrail)] });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("text");
    expect(guardrail.seen).toEqual(["Refund order A-100, please."]);
    expect(model.requests.map((r) => r.messages[0]!.text)).toEqual(["Refund order A-100, please.", "Refund order A-100, please."]);
  });

  it.each([
    ["block", { block: "Your message was withheld: it asks about another customer." }],
    ["retry", { retry: "Your message was withheld: it asks about another customer." }],
  ] as const)("sends the reason instead of the message on every model call for a %s verdict, and state keeps the original", async (_, verdict) => {
    const { agent, model } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("I can only help with your own orders.")], middleware: [inputGuardrail(fixed(verdict))] });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("text");
    for (const request of model.requests) {
      expect(request.messages[0]!.text).toBe("Your message was withheld: it asks about another customer.");
      expect(request.messages[0]!.meta).toEqual({ blockedBy: "input-guardrail:topic" });
    }
    expect(model.requests).toHaveLength(2);
    expect(transcript(result.messages)[0]).toEqual({ role: "user", text: "Refund order A-100, please." });
  });

  it("trips before the first model call: exitReason 'guardrail_tripped' naming the guardrail, and a snapshot", async () => {
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("unused")],
      middleware: [inputGuardrail(fixed({ trip: "Refund requests go to a person first.", details: { queue: "refunds" } }))],
    });

    const result = await agent.run(question());

    if (result.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({
      exitReason: "guardrail_tripped",
      middleware: "input-guardrail:topic",
      hook: "beforeModel",
      reason: "Refund requests go to a person first.",
      details: { queue: "refunds", guardrail: "topic", point: "input" },
    });
    expect(result.snapshot).toMatchObject({ stepCount: 0, next: "chat_generator" });
    expect(model.requests).toHaveLength(0);
  });

  it("resumes a tripped run after the person's decision: the app allows the run and it completes", async () => {
    const approvedRuns = new Set<string>();
    const deny = denyPatterns({ patterns: ["(?i)refund"] });
    const reviewed: Guardrail = { name: "refund-review", check: (input, context) => (approvedRuns.has(context.runId) ? { pass: true } : deny.check(input, context)) };
    const { agent, model, log } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")], middleware: [inputGuardrail(reviewed)] });

    const tripped = await agent.run({ ...question(), runId: "run-1" });
    if (tripped.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${tripped.exitReason}`);
    expect(tripped.stopped.reason).toBe('The text matches the deny pattern "(?i)refund".');
    const stored = JSON.parse(JSON.stringify(tripped.snapshot));

    approvedRuns.add("run-1"); // the person's decision
    const resumed = await agent.run({ snapshot: stored, runId: "run-1" });

    expect(resumed.exitReason).toBe("text");
    expect(resumed.lastMessage.text).toBe("It can be refunded.");
    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(model.requests[0]!.messages.map((m) => m.text)).toEqual(["Refund order A-100, please."]);
  });

  it("does not check rejection feedback, which is not the run's input", async () => {
    const guardrail = fixed({ pass: true });
    const tone = { name: "tone", afterModel: ({ replies }: { replies: readonly ChatMessage[] }) => (replies[0]!.text === "Sure!" ? { reject: "Say what happens next." } : undefined) };
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("Sure!"), ChatMessage.fromAssistant("A person reviews it today.")], middleware: [inputGuardrail(guardrail), tone] });

    const result = await agent.run(question());

    expect(result.lastMessage.text).toBe("A person reviews it today.");
    expect(guardrail.seen).toEqual(["Refund order A-100, please."]);
  });

  it("ends the run with a MiddlewareError when the guardrail returns something that is not a verdict", async () => {
    const broken = { name: "broken", check: () => ({ allow: true }) } as unknown as Guardrail;
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("unused")], middleware: [inputGuardrail(broken)] });

    const error = await rejectionOf(agent.run(question()));

    expect(error).toBeInstanceOf(MiddlewareError);
    expect(error.message).toBe(
      "Middleware 'input-guardrail:broken' threw in beforeModel: Guardrail 'broken' returned an object for the input; return { pass: true }, { block: reason }, { retry: reason } or { trip: reason, details? }.",
    );
    expect(error.cause).toBeInstanceOf(GuardrailError);
  });

  it("refuses a guardrail without a check or a name", () => {
    const noCheck = thrownBy(() => inputGuardrail({ name: "x" } as unknown as Guardrail));
    const noName = thrownBy(() => inputGuardrail({ name: "", check: () => ({ pass: true }) }));

    expect(noCheck).toBeInstanceOf(ConfigurationError);
    expect(noCheck.message).toBe("inputGuardrail needs a guardrail { name, check(input, context) }, got an object; write one or use a built-in (maxInputLength, denyPatterns, openAIModeration).");
    expect(noName.message).toBe('inputGuardrail needs a guardrail whose name is 1-40 characters; stops and errors name it, so give it one: { name: "no-secrets", check }.');
  });
});
