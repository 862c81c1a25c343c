import type { LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3StreamResult, LanguageModelV3Usage } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { type ChatGeneratorRequest, ChatMessage } from "toolwright";

/** V3 usage with these input and output totals. */
export function usage(input: number, output: number): LanguageModelV3Usage {
  return { inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: output, text: output, reasoning: undefined } };
}

/** A doGenerate result of these content parts; the finish reason is `tool-calls` when there is a tool call, else `stop`. */
export function generated(content: LanguageModelV3Content[], options: { unified?: LanguageModelV3GenerateResult["finishReason"]["unified"]; raw?: string; usage?: LanguageModelV3Usage; modelId?: string; id?: string } = {}): LanguageModelV3GenerateResult {
  const unified = options.unified ?? (content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop");
  return {
    content,
    finishReason: { unified, raw: options.raw ?? (unified === "tool-calls" ? "tool_use" : "end_turn") },
    usage: options.usage ?? usage(10, 5),
    response: { id: options.id ?? "resp-1", modelId: options.modelId ?? "mock-model-2025", timestamp: new Date(0) },
    warnings: [],
  };
}

/** A ReadableStream of these parts, closed after the last unless `open`. */
export function streamOf<T>(parts: readonly T[], options: { open?: boolean } = {}): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      if (!options.open) controller.close();
    },
  });
}

/** A doStream result streaming these parts. */
export function streamed(parts: LanguageModelV3StreamPart[]): LanguageModelV3StreamResult {
  return { stream: streamOf(parts) };
}

/**
 * The stream parts a provider sends for the content of `generated(content)`: stream-start and
 * response metadata, each text and reasoning part as start, deltas of `pieces` characters and end,
 * each tool call as input start, deltas and end and then the tool-call part, and the finish part.
 */
export function streamPartsOf(result: LanguageModelV3GenerateResult, pieces = 4): LanguageModelV3StreamPart[] {
  const split = (text: string) => Array.from({ length: Math.ceil(text.length / pieces) }, (_, i) => text.slice(i * pieces, (i + 1) * pieces));
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "response-metadata", id: result.response?.id, modelId: result.response?.modelId },
  ];
  for (const [index, part] of result.content.entries()) {
    const id = String(index);
    if (part.type === "text") {
      parts.push({ type: "text-start", id }, ...split(part.text).map((delta) => ({ type: "text-delta" as const, id, delta })), { type: "text-end", id });
    } else if (part.type === "reasoning") {
      parts.push({ type: "reasoning-start", id }, ...split(part.text).map((delta) => ({ type: "reasoning-delta" as const, id, delta })));
      parts.push({ type: "reasoning-delta", id, delta: "", ...(part.providerMetadata && { providerMetadata: part.providerMetadata }) }, { type: "reasoning-end", id });
    } else if (part.type === "tool-call") {
      parts.push({ type: "tool-input-start", id: part.toolCallId, toolName: part.toolName });
      parts.push(...split(part.input).map((delta) => ({ type: "tool-input-delta" as const, id: part.toolCallId, delta })), { type: "tool-input-end", id: part.toolCallId }, part);
    } else {
      parts.push(part as LanguageModelV3StreamPart);
    }
  }
  parts.push({ type: "finish", finishReason: result.finishReason, usage: result.usage });
  return parts;
}

/** A mock model answering each doGenerate call with the next result, and each doStream call with the same result streamed. */
export function scriptedModel(results: readonly LanguageModelV3GenerateResult[], options: { provider?: string; modelId?: string } = {}): MockLanguageModelV3 {
  let generateCalls = 0;
  let streamCalls = 0;
  const next = (count: number) => {
    const result = results[count];
    if (!result) throw new Error(`scriptedModel has no result for call ${count + 1}.`);
    return result;
  };
  return new MockLanguageModelV3({
    provider: options.provider ?? "anthropic.messages",
    modelId: options.modelId ?? "mock-model",
    doGenerate: async () => next(generateCalls++),
    doStream: async () => streamed(streamPartsOf(next(streamCalls++))),
  });
}

/** A one-message request without tools. */
export function request(extra: Partial<ChatGeneratorRequest> = {}): ChatGeneratorRequest {
  return { messages: [ChatMessage.fromUser("Weather in Paris?")], tools: [], ...extra };
}

/** A tool-call content part. */
export function toolCallPart(toolCallId: string, toolName: string, input: Record<string, unknown> | string): LanguageModelV3Content {
  return { type: "tool-call", toolCallId, toolName, input: typeof input === "string" ? input : JSON.stringify(input) };
}
