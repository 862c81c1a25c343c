import type { z } from "zod";
import type { ResponseFormat } from "../chat/chatGenerator";
import { ConfigurationError } from "../errors";
import type { JsonSchema } from "../tools/jsonSchema";
import { strictCompatibility } from "../tools/strictCompatibility";
import { stripOptionalNulls } from "../tools/stripOptionalNulls";
import { isZodSchema, zodDef, zodVersionProblem } from "../state/zodIntrospection";
import { describeKind } from "../util/describeValue";
import { formatPath } from "../util/formatPath";
import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";
import { zod } from "../util/lazyZod";
import { truncateForEcho } from "../util/truncate";

/** A zod object schema for a run's final answer (`outputSchema`). */
export type OutputSchema = z.ZodObject;

/** The typed final answer of a run with an `outputSchema` (`undefined` without one). */
export type OutputOf<O> = O extends z.ZodType ? z.output<O> : undefined;

/** An output schema after checking: the zod schema, and the response format generators are asked for. */
export interface FinalOutput {
  readonly schema: z.ZodType;
  readonly responseFormat: ResponseFormat;
}

// Each schema is checked and converted once, however many Agents and runs use it.
const checked = new WeakMap<object, FinalOutput>();

/** Checks an `outputSchema` option and makes its response format; throws ConfigurationError naming `subject`. */
export function finalOutput(value: unknown, subject: "Agent" | "Agent.run"): FinalOutput | undefined {
  if (value === undefined) return undefined;
  const known = typeof value === "object" && value !== null ? checked.get(value) : undefined;
  if (known) return known;
  const version = zodVersionProblem(value);
  if (version) throw new ConfigurationError(subject, `${subject} has an outputSchema toolwright cannot read: ${version}.`);
  if (!isZodSchema(value) || zodDef(value).type !== "object") {
    throw new ConfigurationError(
      subject,
      `${subject} has an outputSchema that is not a zod object schema, got ${isZodSchema(value) ? `a zod ${zodDef(value).type}` : describeKind(value)}; pass z.object({ ... }) (providers require an object answer: wrap a list as z.object({ items: z.array(...) })).`,
    );
  }
  let schema: JsonSchema;
  try {
    const { $schema: _ignored, ...json } = zod().toJSONSchema(value, { target: "draft-2020-12", io: "input", unrepresentable: "throw" }) as JsonSchema;
    schema = json;
  } catch (error) {
    throw new ConfigurationError(
      subject,
      `${subject} has an outputSchema with no JSON Schema form (${(error as Error).message}); the model answers in JSON, so use JSON types (a date as z.iso.datetime(), not z.date()) and no transforms on the input side.`,
      { cause: error },
    );
  }
  const description = typeof schema.description === "string" ? schema.description : undefined;
  const responseFormat: ResponseFormat = Object.freeze({
    type: "json_schema" as const,
    name: "final_output",
    ...(description !== undefined && { description }),
    schema: Object.freeze(schema),
    strict: strictCompatibility(schema).compatible,
  });
  const made: FinalOutput = Object.freeze({ schema: value as z.ZodType, responseFormat });
  checked.set(value, made);
  return made;
}

/** A final answer, checked: its typed value, or the problems to tell the model. */
export type CheckedAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: readonly string[] };

const fenced = /^```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;
const maxProblems = 10;

/**
 * Parses and validates the text of a final answer: JSON (a single fenced code block around it is
 * accepted, as models without structured output often add one), an optional property's `null`
 * read as absent (strict mode sends `null` for what the model leaves out), then the zod schema.
 */
export function checkAnswer(output: FinalOutput, text: string): CheckedAnswer {
  const trimmed = text.trim();
  const body = fenced.exec(trimmed)?.[1] ?? trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { ok: false, problems: [`(root): the answer is not JSON (${(error as Error).message})`] };
  }
  if (nestingDepthExceeds(parsed, limits.maxArgumentDepth)) return { ok: false, problems: [`(root): the answer nests deeper than ${limits.maxArgumentDepth} levels`] };
  const result = output.schema.safeParse(stripOptionalNulls(parsed, output.responseFormat.schema));
  if (result.success) return { ok: true, value: result.data };
  const problems = result.error.issues.slice(0, maxProblems).map((issue) => `${truncateForEcho(formatPath(issue.path))}: ${issue.message}`);
  if (result.error.issues.length > maxProblems) problems.push(`… and ${result.error.issues.length - maxProblems} more problems`);
  return { ok: false, problems };
}

/** The message that sends an invalid answer back to the model. */
export function correctionText(problems: readonly string[]): string {
  return `Your final answer does not match the required output schema:\n${problems.map((p) => `- ${p}`).join("\n")}\nAnswer again with only a JSON object that matches the schema.`;
}
