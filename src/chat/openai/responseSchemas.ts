import { z } from "zod";
import { formatPath } from "../../util/formatPath";
import { providerFault } from "./toChatGeneratorError";

// What toolwright reads from a provider, checked before use: the fields a reply is made of must
// have their types (null or missing is fine); bookkeeping fields (model, usage, indexes) with the
// wrong type are ignored instead. Unknown fields are dropped.

const ignoredUnlessValid = <T extends z.ZodType>(schema: T) => schema.nullish().catch(undefined);
const optionalString = z.string().nullish();
const position = ignoredUnlessValid(z.number().int().nonnegative());
const count = ignoredUnlessValid(z.number());

const usageSchema = ignoredUnlessValid(z.object({ prompt_tokens: count, completion_tokens: count, total_tokens: count }));
const functionSchema = z.object({ name: optionalString, arguments: optionalString }).nullish();

const messageSchema = z.object({
  content: optionalString,
  refusal: optionalString,
  tool_calls: z.array(z.object({ id: optionalString, function: functionSchema })).nullish(),
});

/** A `chat.completion` response as toolwright reads it. */
export const completionSchema = z.object({
  model: ignoredUnlessValid(z.string()),
  usage: usageSchema,
  choices: z.array(z.object({ index: position, message: messageSchema.nullish(), finish_reason: optionalString })).nullish(),
});

const deltaSchema = z.object({
  content: optionalString,
  refusal: optionalString,
  tool_calls: z.array(z.object({ index: position, id: optionalString, function: functionSchema })).nullish(),
});

/** A `chat.completion.chunk` stream event as toolwright reads it. */
export const chunkSchema = z.object({
  model: ignoredUnlessValid(z.string()),
  usage: usageSchema,
  choices: z.array(z.object({ index: position, delta: deltaSchema.nullish(), finish_reason: optionalString })).nullish(),
});

/** Token usage as a provider reports it. */
export type ProviderUsage = z.infer<typeof usageSchema>;

/** Checks `value` against `schema`; a mismatch is a ChatGeneratorError naming `what` and the first problem's path. */
export function readProviderValue<T extends z.ZodType>(schema: T, value: unknown, model: string, what: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const problem = issue.code === "invalid_type" ? `expected ${issue.expected}, got ${kindOf(valueAt(value, issue.path))}` : issue.message;
  throw providerFault(model, `${what} does not have the Chat Completions shape (${formatPath(issue.path)}: ${problem}).`);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((current, key) => (typeof current === "object" && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined), value);
}

// By shape, not constructor: the SDK parses bodies in Node's own realm.
function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}
