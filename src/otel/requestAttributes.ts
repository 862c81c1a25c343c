import type { Span } from "@opentelemetry/api";

// generationKwargs are the provider's options, untyped: only a value of the type the convention
// names becomes an attribute (a string temperature or a stop list with a number in it is left out).
const numbers = [
  ["temperature", "gen_ai.request.temperature"],
  ["top_p", "gen_ai.request.top_p"],
  ["top_k", "gen_ai.request.top_k"],
  ["frequency_penalty", "gen_ai.request.frequency_penalty"],
  ["presence_penalty", "gen_ai.request.presence_penalty"],
] as const;

/**
 * Sets the `gen_ai.request.*` attributes that a model call's `generationKwargs` name (OpenAI's
 * spelling): temperature, top_p, top_k, frequency_penalty, presence_penalty, max_completion_tokens
 * (else max_tokens), seed and stop. Only own keys are read.
 */
export function setRequestAttributes(span: Span, kwargs: Readonly<Record<string, unknown>>): void {
  for (const [key, attribute] of numbers) {
    const value = own(kwargs, key);
    if (typeof value === "number" && Number.isFinite(value)) span.setAttribute(attribute, value);
  }
  const maxTokens = [own(kwargs, "max_completion_tokens"), own(kwargs, "max_tokens")].find(Number.isSafeInteger);
  if (maxTokens !== undefined) span.setAttribute("gen_ai.request.max_tokens", maxTokens as number);
  const seed = own(kwargs, "seed");
  if (Number.isSafeInteger(seed)) span.setAttribute("gen_ai.request.seed", seed as number);
  const stop = own(kwargs, "stop");
  if (typeof stop === "string") span.setAttribute("gen_ai.request.stop_sequences", [stop]);
  else if (Array.isArray(stop) && stop.every((item) => typeof item === "string")) span.setAttribute("gen_ai.request.stop_sequences", [...(stop as string[])]);
}

function own(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
