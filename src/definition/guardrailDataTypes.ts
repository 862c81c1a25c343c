import type { z as zodNamespace } from "zod";
import { nameDataType, textDataType } from "../agent/optionDataType";

type Zod = typeof zodNamespace;

/**
 * The keys of a definition's `guardrails`: the `point` names a guardrail is given
 * (`GuardrailInput.point`) and a trip reports (`result.stopped.details.point`), so the list a
 * guardrail is in is the point its stop names. `toolCall` is `toolGuardrail`'s `when: "before"`,
 * `toolResult` its `when: "after"`.
 */
export const guardrailPoints = ["input", "output", "toolCall", "toolResult"] as const;

/** The built-in guardrails that have a data form, by the name of their factory. */
export const dataGuardrails = ["maxInputLength", "denyPatterns"] as const;

/** A built-in guardrail with a data form: `maxInputLength` or `denyPatterns`. */
export type DataGuardrail = (typeof dataGuardrails)[number];

/** The most patterns one `denyPatterns` of a definition may list, and the longest a pattern may be: bounds what loading compiles (RE2 takes about 150 ms for a 1,000-character pattern) and what an error echoes. */
export const dataPatternLimits = Object.freeze({ maxPatterns: 100, maxPatternLength: 1_000 });

/**
 * The zod types of a definition's `guardrails`: each entry is one built-in by name with its own
 * options, shape only (the values are checked by `maxInputLength()` and `denyPatterns()`
 * themselves, so code and definition agree). `entries` are the one-built-in shapes, by kind of
 * point, for the message of an entry that matches none.
 */
export function guardrailDataTypes(z: Zod) {
  const verdict = z
    .string({ error: 'must be "trip", "block" or "retry"' })
    .max(64, { error: 'must be "trip", "block" or "retry"' })
    .optional()
    .meta({ description: 'What a failed check gives: "trip" (the default: the run stops with exitReason "guardrail_tripped" and a snapshot), "block" (the model gets the reason instead) or "retry".' });
  const name = (byDefault: string) =>
    z
      .string({ error: "must be a string (the guardrail's name)" })
      .max(200, { error: "must be at most 200 characters (the guardrail's name)" })
      .optional()
      .meta({ description: `The guardrail's name (1-40 characters), in stops and errors; default "${byDefault}".` });
  const maxInputLength = z
    .strictObject(
      {
        chars: z.number({ error: "must be a number" }).meta({ description: "The most characters the text may have." }),
        verdict,
        name: name("max-input-length"),
      },
      { error: "must be { chars, verdict?, name? }" },
    )
    .meta({ description: "maxInputLength(): fails a text longer than chars characters." });
  const { maxPatterns, maxPatternLength } = dataPatternLimits;
  const denyPatterns = z
    .strictObject(
      {
        patterns: z
          .array(textDataType(z, "a regular expression", maxPatternLength), { error: "must be a list of regular expressions" })
          .max(maxPatterns, { error: `must be at most ${maxPatterns} regular expressions` })
          .meta({ description: "Regular expressions (JavaScript syntax; (?i) at the start for any case), found anywhere in the text, run by RE2 in linear time: lookaround and backreferences are refused." }),
        verdict,
        name: name("deny-patterns"),
      },
      { error: "must be { patterns, verdict?, name? }" },
    )
    .meta({ description: "denyPatterns(): fails a text that matches any of patterns." });
  const tools = z
    .array(nameDataType(z, "a tool name"), { error: "must be a list of tool names" })
    .optional()
    .meta({ description: "Only calls of these tools are checked (toolGuardrail's tools); default every tool." });
  const titled = <T extends zodNamespace.ZodType>(title: string, entry: T) => entry.meta({ title });
  const entries = {
    text: { maxInputLength: titled("maxInputLength", z.strictObject({ maxInputLength })), denyPatterns: titled("denyPatterns", z.strictObject({ denyPatterns })) },
    tool: { maxInputLength: titled("maxInputLength", z.strictObject({ maxInputLength, tools })), denyPatterns: titled("denyPatterns", z.strictObject({ denyPatterns, tools })) },
  } as const;
  const entryError = (kind: keyof typeof entries) => `must be a list of built-in guardrails ({ maxInputLength: {...} } or { denyPatterns: {...} }${kind === "tool" ? ", with tools?" : ""})`;
  const list = (kind: keyof typeof entries, description: string) =>
    z
      .array(z.union([entries[kind].maxInputLength, entries[kind].denyPatterns]), { error: entryError(kind) })
      .optional()
      .meta({ description });
  const guardrails = z
    .strictObject(
      {
        input: list("text", "inputGuardrail() each: checks each user message before the model sees it."),
        output: list("text", "outputGuardrail() each: checks the final answer."),
        toolCall: list("tool", 'toolGuardrail(..., { when: "before", tools }) each: checks a call\'s arguments before it runs.'),
        toolResult: list("tool", 'toolGuardrail(..., { when: "after", tools }) each: checks a call\'s result before the model sees it.'),
      },
      { error: "must be { input?, output?, toolCall?, toolResult? }: lists of built-in guardrails by the point they check" },
    )
    .optional()
    .meta({ description: "Built-in guardrails (maxInputLength, denyPatterns) by the point they check, as middleware before the budget and compaction." });
  return { guardrails, entries } as const;
}
