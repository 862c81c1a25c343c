import { budget, ConfigurationError, type BudgetOptions } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

function configurationError(options: BudgetOptions): ConfigurationError {
  try {
    budget(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected budget() to throw");
}

const prices = { "gpt-4o-mini": { input: 0.15, output: 0.6 }, "gpt-4o": { input: 2.5, output: 10 } };

describe("checkLimits", () => {
  it("refuses a model the price table does not list, naming the models it does", () => {
    const error = configurationError({ maxCost: { amount: 1, model: "gpt-5", prices } });

    expect(error.message).toBe("Budget 'budget' has no price for model 'gpt-5'; add it to maxCost.prices (priced: gpt-4o-mini, gpt-4o).");
    expect(error).toMatchObject({ subject: "Budget 'budget'", optionPath: ["maxCost", "prices"] });
  });

  it("reads the model from a chat generator, and refuses one the table does not price", () => {
    expect(() => budget({ maxCost: { amount: 1, model: new ScriptedChatGenerator([]), prices: { scripted: { input: 1, output: 1 } } } })).not.toThrow();

    expect(configurationError({ name: "spend", maxCost: { amount: 1, model: new ScriptedChatGenerator([]), prices } }).message).toBe(
      "Budget 'spend' has no price for model 'scripted'; add it to maxCost.prices (priced: gpt-4o-mini, gpt-4o).",
    );
    expect(configurationError({ maxCost: { amount: 1, model: {}, prices } }).message).toBe(
      "Budget 'budget' option maxCost.model must be a model name or a chat generator that names its model; this one has no model.",
    );
  });

  it("refuses limits that are not finite numbers ≥ 0, and prices too", () => {
    expect(configurationError({ maxModelCalls: -1 }).message).toBe("Budget 'budget' option maxModelCalls must be a finite number ≥ 0; got -1.");
    expect(configurationError({ maxTotalTokens: Number.NaN }).message).toBe("Budget 'budget' option maxTotalTokens must be a finite number ≥ 0; got NaN.");
    expect(configurationError({ maxWallClockMs: "60s" as unknown as number }).message).toBe('Budget \'budget\' option maxWallClockMs must be a finite number ≥ 0; got "60s".');
    expect(configurationError({ maxCost: { amount: 1, model: "m", prices: { m: { input: 1, output: Infinity } } } }).message).toBe(
      "Budget 'budget' option maxCost.prices.m.output must be a finite number ≥ 0; got Infinity.",
    );
  });

  it("refuses a limit it does not know, listing the ones it does", () => {
    const error = configurationError({ maxTokens: 100 } as BudgetOptions);

    expect(error.message).toBe("Budget 'budget' has no limit 'maxTokens'; the limits are maxInputTokens, maxOutputTokens, maxTotalTokens, maxModelCalls, maxToolCalls, maxCost, maxWallClockMs.");
  });

  it("checks the limits setLimits is given and keeps the old ones when they are refused", () => {
    const spend = budget({ maxModelCalls: 3 });

    expect(() => spend.setLimits({ maxModelCalls: -2 })).toThrow("Budget 'budget' option maxModelCalls must be a finite number ≥ 0; got -2.");
    expect(spend.limits).toEqual({ maxModelCalls: 3 });
    spend.setLimits({ maxModelCalls: 6 });
    expect(spend.limits).toEqual({ maxModelCalls: 6 });
  });
});
