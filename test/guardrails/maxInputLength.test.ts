import { ChatMessage, ConfigurationError, type HookContext, inputGuardrail, maxInputLength } from "toolwright";
import { question, refundDesk, thrownBy } from "../helpers/refundDesk";

const context = {} as HookContext;
const input = (text: string) => ({ point: "input", text, message: ChatMessage.fromUser(text) }) as const;

describe("maxInputLength", () => {
  it("passes a text of at most chars characters and fails a longer one with the figures", () => {
    const guardrail = maxInputLength({ chars: 5 });

    expect(guardrail.check(input("12345"), context)).toEqual({ pass: true });
    expect(guardrail.check(input("123456"), context)).toEqual({ trip: "The text is 6 characters long, over the limit of 5; shorten it.", details: { length: 6, limit: 5 } });
  });

  it("gives the verdict it is told to and takes another name", () => {
    const guardrail = maxInputLength({ chars: 0, verdict: "block", name: "short-inputs" });

    expect(guardrail.name).toBe("short-inputs");
    expect(guardrail.check(input("x"), context)).toEqual({ block: "The text is 1 character long, over the limit of 0; shorten it." });
  });

  it("trips a run whose question is too long", async () => {
    const { agent } = refundDesk({ script: [ChatMessage.fromAssistant("unused")], middleware: [inputGuardrail(maxInputLength({ chars: 10 }))] });

    const result = await agent.run(question());

    expect(result.exitReason).toBe("guardrail_tripped");
    expect(result.stopped).toMatchObject({ reason: "The text is 27 characters long, over the limit of 10; shorten it.", details: { length: 27, limit: 10, guardrail: "max-input-length", point: "input" } });
  });

  it("refuses a chars that is not a whole number and an unknown verdict", () => {
    const chars = thrownBy(() => maxInputLength({ chars: 1.5 }));
    const verdict = thrownBy(() => maxInputLength({ chars: 1, verdict: "stop" as "trip" }));

    expect(chars).toBeInstanceOf(ConfigurationError);
    expect(chars.message).toBe("maxInputLength needs chars, a whole number of characters of at least 0, got 1.5.");
    expect(verdict.message).toBe('maxInputLength has verdict "stop"; use "trip" (the default), "block" or "retry".');
  });
});
