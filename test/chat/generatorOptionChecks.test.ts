import { checkMilliseconds, checkRetries } from "../../src/chat/generatorOptionChecks";
import { ConfigurationError } from "../../src/errors";

const owner = { subject: "SomeChatGenerator" };

function thrown(check: () => unknown): ConfigurationError {
  try {
    check();
  } catch (error) {
    return error as ConfigurationError;
  }
  throw new Error("the check did not throw");
}

describe("checkMilliseconds", () => {
  it("returns the example when the option is not given, and the value when it is in range", () => {
    expect(checkMilliseconds(undefined, { ...owner, name: "deadlineMs", example: 600_000 })).toBe(600_000);
    expect(checkMilliseconds(1, { ...owner, name: "deadlineMs", example: 600_000 })).toBe(1);
    expect(checkMilliseconds(2_147_483_647, { ...owner, name: "deadlineMs", example: 600_000 })).toBe(2_147_483_647);
    expect(checkMilliseconds(0, { ...owner, name: "maxRetryDelayMs", example: 60_000, allowZero: true })).toBe(0);
  });

  it("refuses 0, a negative number, a number past the longest timer and a non-number, as a ConfigurationError of the subject", () => {
    for (const [value, got] of [[0, "number 0"], [-1, "number -1"], [2_147_483_648, "number 2147483648"], ["5", 'string "5"']] as const) {
      const error = thrown(() => checkMilliseconds(value, { ...owner, name: "deadlineMs", example: 600_000 }));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.subject).toBe("SomeChatGenerator");
      expect(error.message).toBe(`SomeChatGenerator needs deadlineMs to be a number of milliseconds greater than 0 and at most 2147483647, e.g. deadlineMs: 600000, got ${got}.`);
    }
    expect(thrown(() => checkMilliseconds(-5, { ...owner, name: "maxRetryDelayMs", example: 60_000, allowZero: true })).message).toBe(
      "SomeChatGenerator needs maxRetryDelayMs to be a number of milliseconds from 0 to 2147483647, e.g. maxRetryDelayMs: 60000, got number -5.",
    );
  });

  it("makes the error with the owner's optionError, given the option's name", () => {
    const optionError = jest.fn((name: string, message: string) => new ConfigurationError(`SomeChatGenerator.${name}`, message));

    const error = thrown(() => checkMilliseconds(Number.NaN, { ...owner, optionError, name: "timeout", example: 600_000 }));

    expect(optionError).toHaveBeenCalledWith("timeout", "SomeChatGenerator needs timeout to be a number of milliseconds greater than 0 and at most 2147483647, e.g. timeout: 600000, got number NaN.");
    expect(error.subject).toBe("SomeChatGenerator.timeout");
  });
});

describe("checkRetries", () => {
  it("returns 2 when maxRetries is not given, and a whole number from 0 up as it is", () => {
    expect(checkRetries(undefined, owner)).toBe(2);
    expect(checkRetries(0, owner)).toBe(0);
    expect(checkRetries(7, owner)).toBe(7);
  });

  it("refuses a fraction, a negative number and a non-number", () => {
    for (const [value, got] of [[1.5, "number 1.5"], [-1, "number -1"], ["2", 'string "2"']] as const) {
      const error = thrown(() => checkRetries(value, owner));
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(`SomeChatGenerator needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got ${got}.`);
    }
    const optionError = jest.fn((name: string, message: string) => new ConfigurationError("SomeChatGenerator", message));
    thrown(() => checkRetries(-1, { ...owner, optionError }));
    expect(optionError).toHaveBeenCalledWith("maxRetries", "SomeChatGenerator needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got number -1.");
  });
});
