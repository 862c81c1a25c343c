import { ChatMessage, ConfigurationError, type Guardrail, type GuardrailInput, type GuardrailVerdict, toolGuardrail } from "toolwright";
import { calls, lookupCall, question, refundCall, refundDesk, thrownBy, transcript } from "../helpers/refundDesk";

/** A guardrail that gives `verdict` at `point` and passes elsewhere, recording what it was asked about. */
function at(point: GuardrailInput["point"], verdict: GuardrailVerdict): Guardrail & { seen: Array<[string, string]> } {
  const seen: Array<[string, string]> = [];
  return { name: "refunds", seen, check: (input) => (seen.push([input.point, input.text]), input.point === point ? verdict : { pass: true }) };
}

describe("toolGuardrail", () => {
  it("checks each call's arguments (the model's, without injected state) before it runs and its result after, and passes them", async () => {
    const guardrail = at("input", { block: "x" });
    const { agent, log } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")], middleware: [toolGuardrail(guardrail)] });

    await agent.run(question());

    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(guardrail.seen).toEqual([
      ["toolCall", '{"orderId":"A-100"}'],
      ["toolResult", '{"orderId":"A-100","paid":49}'],
    ]);
  });

  it.each([
    ["block", { block: "Refunds need a manager; tell the customer so." }],
    ["retry", { retry: "Refunds need a manager; tell the customer so." }],
  ] as const)("rejects the call before it runs for a %s verdict: the model gets the reason", async (_, verdict) => {
    const { agent, log } = refundDesk({ script: [calls(lookupCall, refundCall), ChatMessage.fromAssistant("A manager will call you.")], middleware: [toolGuardrail(at("toolCall", verdict), { tools: ["issue_refund"] })] });

    const result = await agent.run(question());

    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(transcript(result.messages).slice(2, 4)).toEqual([
      { role: "tool", text: '{"orderId":"A-100","paid":49}', error: false },
      { role: "tool", text: "Refunds need a manager; tell the customer so.", error: true },
    ]);
    expect(result.refunds).toBeUndefined();
  });

  it("trips before the call: no call of the step runs and the run ends 'guardrail_tripped'", async () => {
    const { agent, log } = refundDesk({ script: [calls(lookupCall, refundCall)], middleware: [toolGuardrail(at("toolCall", { trip: "A person approves refunds.", details: { limit: 0 } }), { tools: ["issue_refund"], when: "before" })] });

    const result = await agent.run(question());

    if (result.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({ exitReason: "guardrail_tripped", middleware: "tool-guardrail:refunds", hook: "beforeTool", reason: "A person approves refunds.", details: { limit: 0, guardrail: "refunds", point: "toolCall" } });
    expect(log).toEqual([]);
    expect(result.snapshot).toMatchObject({ stepCount: 1, next: "tool" });
  });

  it.each([
    ["block", { block: "The order details are withheld." }],
    ["retry", { retry: "The order details are withheld." }],
  ] as const)("replaces the text the model gets after the call for a %s verdict, and state still gets the result", async (_, verdict) => {
    const { agent, model } = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("Done.")], middleware: [toolGuardrail(at("toolResult", verdict), { when: "after" })] });

    const result = await agent.run(question());

    expect(model.requests[1]!.messages.at(-1)!.toolCallResult!.result).toBe("The order details are withheld.");
    expect(result.refunds).toEqual([{ orderId: "A-100", amount: 49 }]);
  });

  it("trips after the call: the run ends 'guardrail_tripped' once the step's results are in, and resumes with the next model call", async () => {
    let trips = 0;
    const once: Guardrail = { name: "leak", check: ({ point }) => (point === "toolResult" && trips++ === 0 ? { trip: "The result needs a look." } : { pass: true }) };
    const { agent, model, log } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")], middleware: [toolGuardrail(once)] });

    const result = await agent.run(question());
    if (result.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({ exitReason: "guardrail_tripped", middleware: "tool-guardrail:leak", hook: "afterTool", reason: "The result needs a look.", details: { guardrail: "leak", point: "toolResult" } });

    const resumed = await agent.run({ snapshot: result.snapshot });

    expect(resumed.lastMessage.text).toBe("It can be refunded.");
    expect(log.map((entry) => entry.tool)).toEqual(["lookup_order"]);
    expect(model.requests).toHaveLength(2);
  });

  it("refuses tools that are not names and an unknown when", () => {
    const guardrail = at("toolCall", { pass: true });

    const tools = thrownBy(() => toolGuardrail(guardrail, { tools: "issue_refund" as unknown as string[] }));
    const when = thrownBy(() => toolGuardrail(guardrail, { when: "during" as "before" }));

    expect(tools).toBeInstanceOf(ConfigurationError);
    expect(tools.message).toBe('toolGuardrail has tools that is string "issue_refund", not an array of tool names; pass tools: ["issue_refund"], or leave it out to check every tool.');
    expect(when.message).toBe('toolGuardrail has when "during"; use "before", "after" or "both".');
  });
});
