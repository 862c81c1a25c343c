import fc from "fast-check";
import { ChatMessage, ConfigurationError, denyPatterns, type HookContext, toolGuardrail } from "toolwright";
import { calls, question, refundCall, refundDesk, thrownBy, transcript } from "../helpers/refundDesk";

const context = {} as HookContext;
const input = (text: string) => ({ point: "input", text, message: ChatMessage.fromUser(text) }) as const;

describe("denyPatterns", () => {
  it("fails a text matching a pattern anywhere, naming the first that matches, and passes the rest", () => {
    const guardrail = denyPatterns({ patterns: ["\\bsk-[A-Za-z0-9]{20,}", "(?i)password"] });

    expect(guardrail.check(input("my PassWord is hunter2"), context)).toEqual({ trip: 'The text matches the deny pattern "(?i)password".', details: { pattern: "(?i)password" } });
    expect(guardrail.check(input("key sk-abcdefghijklmnopqrstuvwxyz"), context)).toEqual({ trip: 'The text matches the deny pattern "\\\\bsk-[A-Za-z0-9]{20,}".', details: { pattern: "\\bsk-[A-Za-z0-9]{20,}" } });
    expect(guardrail.check(input("sk-short"), context)).toEqual({ pass: true });
  });

  it("finishes a catastrophic-backtracking pattern on inputs that would stall a backtracking engine", () => {
    // ^(a+)+$ on "aaaa…ab" takes a backtracking engine time exponential in the length; RE2's is linear.
    const guardrail = denyPatterns({ patterns: ["^(a+)+$", "(x|x|xx)*y"] });

    fc.assert(
      fc.property(fc.integer({ min: 20, max: 5000 }), fc.constantFrom("b", "!", "z"), (length, tail) => {
        expect(guardrail.check(input(`${"a".repeat(length)}${tail}`), context)).toEqual({ pass: true });
        expect(guardrail.check(input(`${"x".repeat(length)}${tail}`), context)).toEqual({ pass: true });
        expect(guardrail.check(input("a".repeat(length)), context)).toMatchObject({ details: { pattern: "^(a+)+$" } });
      }),
      { numRuns: 50 },
    );
  });

  it("blocks a tool call whose arguments match: the call does not run and the model gets the reason", async () => {
    const { agent, log } = refundDesk({ script: [calls(refundCall), ChatMessage.fromAssistant("A person will look at it.")], middleware: [toolGuardrail(denyPatterns({ patterns: ['"amount":\\d{2,}'], verdict: "block" }), { when: "before" })] });

    const result = await agent.run(question());

    expect(log).toEqual([]);
    expect(transcript(result.messages)[2]).toEqual({ role: "tool", text: 'The text matches the deny pattern "\\"amount\\":\\\\d{2,}".', error: true });
  });

  it("refuses a pattern RE2 cannot run in linear time, and an empty list", () => {
    const backreference = thrownBy(() => denyPatterns({ patterns: ["ok", "(a)\\1"] }));
    const lookahead = thrownBy(() => denyPatterns({ patterns: ["(?=a)b"] }));
    const empty = thrownBy(() => denyPatterns({ patterns: [] }));

    expect(backreference).toBeInstanceOf(ConfigurationError);
    expect(backreference.message).toBe('denyPatterns has patterns[1] "(a)\\\\1", which cannot be matched in linear time (RE2 has no backreferences); rewrite it without lookaround or backreferences.');
    expect(lookahead.message).toBe('denyPatterns has patterns[0] "(?=a)b", which cannot be matched in linear time (RE2 has no lookahead or lookbehind); rewrite it without lookaround or backreferences.');
    expect(empty.message).toBe("denyPatterns needs patterns, a non-empty array of regular expressions, got an empty array.");
  });

  it("refuses patterns whose RE2 programs together exceed maxProgramSize, naming the pattern that crossed it", () => {
    const counted = thrownBy(() => denyPatterns({ patterns: ["password", "[a-z]{1,1000}[0-9]"] }));
    const raised = denyPatterns({ patterns: ["[a-z]{1,1000}[0-9]"], maxProgramSize: 2100 });
    const badLimit = thrownBy(() => denyPatterns({ patterns: ["x"], maxProgramSize: 0 }));

    expect(counted).toBeInstanceOf(ConfigurationError);
    expect(counted.message).toBe(
      "denyPatterns has patterns that compile to more than 1000 RE2 instructions (2012 by patterns[1]); matching costs about 30 ns per instruction and character of text, so shorten counted repetitions such as {1,1000}, split the patterns among guardrails, or raise maxProgramSize.",
    );
    expect((counted as ConfigurationError).optionPath).toEqual(["patterns", "1"]);
    expect(raised.check(input("abc7"), context)).toMatchObject({ details: { pattern: "[a-z]{1,1000}[0-9]" } });
    expect(badLimit.message).toBe("denyPatterns needs maxProgramSize as a whole number of at least 1, got number 0.");
  });
});
