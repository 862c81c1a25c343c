import { z } from "zod";
import { Agent, ChatMessage, type Guardrail, type GuardrailInput, type GuardrailVerdict, outputGuardrail } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { calls, deskState, deskTools, lookupCall, question, refundDesk, transcript } from "../helpers/refundDesk";

/** A guardrail that fails answers containing "guarantee" with `verdict`, recording what it was asked about. */
function noPromises(verdict: GuardrailVerdict): Guardrail & { seen: GuardrailInput[] } {
  const seen: GuardrailInput[] = [];
  return { name: "no-promises", seen, check: (input) => (seen.push(input), input.text.includes("guarantee") ? verdict : { pass: true }) };
}

describe("outputGuardrail", () => {
  it("passes a final answer and does not check replies with tool calls", async () => {
    const guardrail = noPromises({ block: "x" });
    const { agent } = refundDesk({ script: [calls(lookupCall), ChatMessage.fromAssistant("It can be refunded.")], middleware: [outputGuardrail(guardrail)] });

    const result = await agent.run(question());

    expect(result.lastMessage.text).toBe("It can be refunded.");
    expect(guardrail.seen.map((input) => [input.point, input.text])).toEqual([["output", "It can be refunded."]]);
  });

  it.each([
    ["block", { block: "Do not promise outcomes; say what happens next." }],
    ["retry", { retry: "Do not promise outcomes; say what happens next." }],
  ] as const)("rejects the answer for a %s verdict: the reason goes back to the model, which answers again", async (_, verdict) => {
    const { agent, model } = refundDesk({
      script: [ChatMessage.fromAssistant("I guarantee a refund."), ChatMessage.fromAssistant("A person reviews your refund today.")],
      middleware: [outputGuardrail(noPromises(verdict))],
    });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("text");
    expect(transcript(result.messages)).toEqual([
      { role: "user", text: "Refund order A-100, please." },
      { role: "assistant", text: "I guarantee a refund." },
      { role: "user", text: "Do not promise outcomes; say what happens next." },
      { role: "assistant", text: "A person reviews your refund today." },
    ]);
    expect(result.messages[2]!.meta).toEqual({ rejectedBy: "output-guardrail:no-promises" });
    expect(model.requests).toHaveLength(2);
  });

  it("trips on the answer: the run ends 'guardrail_tripped' with the answer kept, and resuming asks the model again", async () => {
    let tripped = false;
    const once: Guardrail = { name: "legal", check: ({ text }) => (!tripped && text.includes("guarantee") ? ((tripped = true), { trip: "Legal must see promises." }) : { pass: true }) };
    const { agent, model } = refundDesk({ script: [ChatMessage.fromAssistant("I guarantee a refund."), ChatMessage.fromAssistant("A person reviews it today.")], middleware: [outputGuardrail(once)] });

    const result = await agent.run(question());
    if (result.exitReason !== "guardrail_tripped") throw new Error(`guardrail_tripped expected, got ${result.exitReason}`);
    expect(result.stopped).toEqual({ exitReason: "guardrail_tripped", middleware: "output-guardrail:legal", hook: "afterModel", reason: "Legal must see promises.", details: { guardrail: "legal", point: "output" } });
    expect(result.lastMessage.text).toBe("I guarantee a refund.");

    const resumed = await agent.run({ snapshot: result.snapshot });

    expect(resumed.lastMessage.text).toBe("A person reviews it today.");
    expect(model.requests).toHaveLength(2);
  });

  it("gives a typed-output answer's JSON object as json", async () => {
    const guardrail: Guardrail & { json?: unknown } = {
      name: "amount-cap",
      check(input) {
        if (input.point !== "output") return { pass: true };
        guardrail.json = input.json;
        return Number(input.json?.amount) > 100 ? { retry: "Amounts over 100 need a person; answer with amount 100 at most." } : { pass: true };
      },
    };
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant('{"orderId":"A-100","amount":400}'), ChatMessage.fromAssistant('{"orderId":"A-100","amount":49}')]),
      tools: deskTools([]),
      stateSchema: deskState,
      outputSchema: z.object({ orderId: z.string(), amount: z.number() }),
      middleware: [outputGuardrail(guardrail)],
    });

    const result = await agent.run(question());

    expect(result.output).toEqual({ orderId: "A-100", amount: 49 });
    expect(guardrail.json).toEqual({ orderId: "A-100", amount: 49 });
    expect(transcript(result.messages)[2]).toEqual({ role: "user", text: "Amounts over 100 need a person; answer with amount 100 at most." });
  });
});
