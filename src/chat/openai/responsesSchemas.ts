import { z } from "zod";
import { count, ignoredUnlessValid, optionalString, position } from "./readProviderValue";

// The Responses API's replies and stream events as toolwright reads them (see readProviderValue for
// the rules). Items and parts of kinds toolwright does not use (web search calls, annotations, …)
// are read as null and left out.

/** True for a JSON object. By shape, not prototype: the SDK parses bodies in Node's own realm. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `schema` for an object whose `type` is one of `types`; anything else is read as null. */
function ofTypes<T extends z.ZodType>(types: readonly string[], schema: T) {
  return z.preprocess((value) => (isJsonObject(value) && types.includes(value.type as string) ? value : null), schema.nullable());
}

const messageItem = z.object({
  type: z.literal("message"),
  content: z
    .array(ofTypes(["output_text", "refusal"], z.discriminatedUnion("type", [z.object({ type: z.literal("output_text"), text: optionalString }), z.object({ type: z.literal("refusal"), refusal: optionalString })])))
    .nullish(),
});

const functionCallItem = z.object({ type: z.literal("function_call"), id: optionalString, call_id: optionalString, name: optionalString, arguments: optionalString });

const reasoningItem = z.object({
  type: z.literal("reasoning"),
  id: optionalString,
  summary: z.array(ofTypes(["summary_text"], z.object({ type: z.literal("summary_text"), text: optionalString }))).nullish(),
  encrypted_content: optionalString,
  content: z.array(ofTypes(["reasoning_text"], z.object({ type: z.literal("reasoning_text"), text: optionalString }))).nullish(),
});

const errorSchema = ignoredUnlessValid(z.object({ code: ignoredUnlessValid(z.string()), message: ignoredUnlessValid(z.string()) }));

/** A `response` object (a non-streaming reply, or a stream's final response) as toolwright reads it. */
export const responseSchema = z.object({
  id: ignoredUnlessValid(z.string()),
  model: ignoredUnlessValid(z.string()),
  status: ignoredUnlessValid(z.string()),
  error: errorSchema,
  incomplete_details: ignoredUnlessValid(z.object({ reason: ignoredUnlessValid(z.string()) })),
  output: z.array(ofTypes(["message", "function_call", "reasoning"], z.discriminatedUnion("type", [messageItem, functionCallItem, reasoningItem]))).nullish(),
  usage: ignoredUnlessValid(z.object({ input_tokens: count, output_tokens: count, total_tokens: count })),
});

/** A response as toolwright reads it. */
export type ProviderResponse = z.infer<typeof responseSchema>;
/** A reasoning output item as toolwright reads it. */
export type ProviderReasoningItem = z.infer<typeof reasoningItem>;
/** The error of a failed response, or an `error` stream event, as toolwright reads it. */
export type ProviderError = z.infer<typeof errorSchema>;

/** Any stream event: an object; its `type` says how to read the rest. */
export const eventSchema = z.object({ type: ignoredUnlessValid(z.string()) });

/** `response.output_text.delta` and `response.reasoning_summary_text.delta`. */
export const deltaEventSchema = z.object({ delta: optionalString });

/** `response.output_item.added`: only a function call's header is read. */
export const itemAddedEventSchema = z.object({ output_index: position, item: ofTypes(["function_call"], functionCallItem) });

/** `response.output_item.done`: the item is read with the final response's output. */
export const itemDoneEventSchema = z.object({ output_index: position, item: z.unknown() });

/** `response.function_call_arguments.delta`. */
export const argumentsDeltaEventSchema = z.object({ output_index: position, item_id: ignoredUnlessValid(z.string()), delta: optionalString });

/** `response.completed` and `response.incomplete`: the response is read with `responseSchema`. */
export const finalEventSchema = z.object({ response: z.unknown() });

/** `response.failed`. */
export const failedEventSchema = z.object({ response: ignoredUnlessValid(z.object({ error: errorSchema })) });

/** An `error` event. */
export const errorEventSchema = z.object({ code: ignoredUnlessValid(z.string()), message: ignoredUnlessValid(z.string()) });
