import { z } from "zod";
import { count, ignoredUnlessValid, optionalString, position } from "./readProviderValue";

// The Chat Completions API's replies as toolwright reads them (see readProviderValue for the rules).

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
