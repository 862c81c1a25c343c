import { ConfigurationError } from "toolwright";
import { acceptsRule, checkOption, option } from "../../src/agent/optionSpec";

const steps = option<number>({
  rule: { kind: "integer", min: 1, max: 10 },
  fallback: 3,
  message: (value, subject) => `${subject} has steps ${String(value)}: it must be a whole number from 1 to 10. Default 3.`,
});

describe("checkOption", () => {
  it("returns the default for an option left out", () => {
    expect(checkOption(steps, undefined, "Agent")).toBe(3);
  });

  it("returns a value that keeps the rule", () => {
    expect(checkOption(steps, 10, "Agent")).toBe(10);
  });

  it("throws the spec's message as a ConfigurationError of the subject", () => {
    expect(() => checkOption(steps, 11, "Agent.run")).toThrow(new ConfigurationError("Agent.run", "Agent.run has steps 11: it must be a whole number from 1 to 10. Default 3."));
  });

  it("refuses a required option left out", () => {
    const required = option<string>({ rule: { kind: "name" }, required: true, message: (value) => `Thing needs a name, got ${String(value)}.` });
    expect(() => checkOption(required, undefined, "Thing")).toThrow(new ConfigurationError("Thing", "Thing needs a name, got undefined."));
  });

  it("gives the message the names the option may use", () => {
    const pick = option<string>({ rule: { kind: "name" }, message: (_value, subject, known) => `${subject} picks none of ${known.join(", ")}.` });
    expect(() => checkOption(pick, "", "Agent", ["a", "b"])).toThrow("Agent picks none of a, b.");
  });
});

describe("acceptsRule", () => {
  it.each([
    [{ kind: "integer", min: 0 } as const, [0, 7, 1e9], [-1, 0.5, "1", NaN, Infinity]],
    [{ kind: "positive" } as const, [0.5, 1, 1e12], [0, -1, NaN, Infinity, "1"]],
    [{ kind: "name" } as const, ["a", "x".repeat(200)], ["", "x".repeat(201), 1, null]],
    [{ kind: "text", maxLength: 3 } as const, ["", "abc"], ["abcd", 3, null]],
    [{ kind: "boolean" } as const, [true, false], [0, "true", null]],
    [{ kind: "function" } as const, [() => 1, class {}], [{}, "f", null]],
    [{ kind: "record" } as const, [{}, { a: 1 }, new Map()], [[], null, "x", 1]],
    [{ kind: "list", minItems: 1, items: { kind: "name" } } as const, [["a"], ["a", "b"]], [[], [""], "a", [1]]],
    [{ kind: "custom", accepts: (value: unknown) => value === 42 } as const, [42], [41, "42"]],
  ])("tells the values a %j rule takes from the others", (rule, accepted, refused) => {
    expect(accepted.map((value) => acceptsRule(rule, value))).toEqual(accepted.map(() => true));
    expect(refused.map((value) => acceptsRule(rule, value))).toEqual(refused.map(() => false));
  });
});
