import type { z as zodNamespace } from "zod";
import { nameDataType } from "../agent/optionDataType";

type Zod = typeof zodNamespace;

/**
 * The zod types of a definition's `budget` and `compaction`: their shape only (each value's rule
 * is checked by `budget()`, `pruneToolResults()` and `slidingWindow()` themselves, so code and
 * definition agree), with descriptions for the published JSON Schema.
 */
export function middlewareDataTypes(z: Zod) {
  const amount = (description: string) => z.number({ error: "must be a number" }).optional().meta({ description });
  const price = z
    .strictObject({ input: z.number({ error: "must be a number" }), output: z.number({ error: "must be a number" }) }, { error: "must be { input, output }: prices per 1M tokens" })
    .meta({ description: "A model's prices per 1M input and output tokens, in the currency of maxCost.amount." });
  const maxCost = z
    .strictObject(
      {
        amount: z.number({ error: "must be a number" }).meta({ description: "The most the run may cost, in the currency of prices." }),
        model: nameDataType(z, "the model the run's tokens are priced as").meta({ description: "The model name the run's tokens are priced as (a key of prices)." }),
        prices: z.record(nameDataType(z, "a model name"), price, { error: "must be a mapping of model name → { input, output }" }).meta({ description: "Prices per 1M tokens, by model name." }),
      },
      { error: "must be { amount, model, prices }" },
    )
    .optional()
    .meta({ description: "A cost limit: the run's tokens priced for one model." });
  const budget = z
    .strictObject(
      {
        maxInputTokens: amount("The most input tokens a run may use."),
        maxOutputTokens: amount("The most output tokens a run may use."),
        maxTotalTokens: amount("The most input and output tokens together a run may use."),
        maxModelCalls: amount("The most model calls a run may make."),
        maxToolCalls: amount("The most tool calls a run may make."),
        maxWallClockMs: amount("The most active time a run may take, in ms (time inside agent.run calls)."),
        maxCost,
      },
      { error: "must be a mapping of limits (maxModelCalls, maxTotalTokens, maxCost, …)" },
    )
    .optional()
    .meta({ description: 'Per-run limits, as budget() takes them: a run that uses one up stops with exitReason "budget_exhausted" and a snapshot.' });
  const compaction = z
    .strictObject(
      {
        pruneToolResults: z
          .strictObject(
            {
              keepLast: z.number({ error: "must be a number" }).optional().meta({ description: "How many of the newest tool results are sent as they are. Default 2." }),
              maxChars: z.number({ error: "must be a number" }).optional().meta({ description: "Older results longer than this many characters are sent as a reference. Default 2000." }),
            },
            { error: "must be { keepLast?, maxChars? }" },
          )
          .optional()
          .meta({ description: "Old long tool results are sent as a short reference; state keeps the full text (readToolResult() reads it back)." }),
        slidingWindow: z
          .strictObject({ maxTokens: z.number({ error: "must be a number" }).meta({ description: "The most tokens a model call may send." }) }, { error: "must be { maxTokens }" })
          .optional()
          .meta({ description: "Sends the system messages and the newest messages that fit in maxTokens; a tool call and its results stay together." }),
        tokenCounter: z
          .enum(["estimate", "gpt"], { error: 'must be "estimate" or "gpt"' })
          .optional()
          .meta({ description: 'How slidingWindow counts tokens: "estimate" (the default, tokenizer-free, every vendor) or "gpt" (exact for OpenAI models, o200k_base; needs the gpt-tokenizer package).' }),
      },
      { error: "must be { pruneToolResults?, slidingWindow?, tokenCounter? }" },
    )
    .optional()
    .meta({ description: "What the model is sent, kept short: pruneToolResults, then slidingWindow, before each model call." });
  return { budget, compaction } as const;
}
