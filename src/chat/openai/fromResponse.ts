import { ChatGeneratorError } from "../../errors";
import { truncateForEcho } from "../../util/truncate";
import type { ChatGeneratorResponse } from "../chatGenerator";
import { ChatMessage, type ChatMessageJSON, type ReasoningContent } from "../chatMessage";
import { replyMeta, toToolCall, toUsage } from "./openaiConverter";
import { readProviderBody } from "./readProviderValue";
import { type ProviderError, type ProviderReasoningItem, type ProviderResponse, responseSchema } from "./responsesSchemas";
import { providerFault } from "./toChatGeneratorError";

/** What a Responses API call answers: one reply, and a finish reason always. */
export interface ResponsesReply extends ChatGeneratorResponse {
  readonly meta: NonNullable<ChatGeneratorResponse["meta"]> & { readonly finishReason: string };
}

/**
 * Builds the response of a non-streaming Responses API call from the body the SDK returned
 * (parsed JSON, the text of a non-JSON body, or nothing); see `replyOf`.
 */
export function fromResponse(body: unknown, model: string): ResponsesReply {
  return replyOf(readProviderBody(responseSchema, body, model, "Responses API"), model);
}

/**
 * The reply of a finished response: one assistant message whose parts keep the order of the
 * output items (the API wants each reasoning item back right before the item that followed it):
 * the reasoning items as reasoning parts, the output text (the `output_text` parts joined; a
 * refusal when there is none) where the first message item stood, and the function calls as tool
 * calls. `meta` has the model, the response id, its status, the finish reason and the usage.
 * Finish reasons: `length` for a response cut off at `max_output_tokens`, `content_filter` for one
 * cut off by the filter (`incomplete` for another cut), else `tool_calls` when it has function
 * calls, else `stop`. Rejects with a ChatGeneratorError when the response failed, is not finished
 * (a background response) or has no output list.
 */
export function replyOf(response: ProviderResponse, model: string): ResponsesReply {
  if (response.status === "failed" || response.error?.message) throw responseFailure(model, response.error);
  if (response.status && response.status !== "completed" && response.status !== "incomplete") {
    throw providerFault(
      model,
      `the response has status '${truncateForEcho(response.status)}', not completed; toolwright waits for each response and does not poll background ones, so leave background out of generationKwargs.`,
    );
  }
  if (!response.output) throw providerFault(model, "the response has no output list; check that baseURL points at an OpenAI-compatible /v1 endpoint that serves the Responses API.");
  const content: ChatMessageJSON["content"] = [];
  const texts: string[] = [];
  const refusals: string[] = [];
  let textAt: number | undefined;
  let hasToolCalls = false;
  for (const item of response.output) {
    if (item?.type === "message") {
      if (textAt === undefined) {
        textAt = content.length;
        content.push({ text: "" });
      }
      for (const part of item.content ?? []) {
        if (part?.type === "output_text") texts.push(part.text ?? "");
        else if (part?.type === "refusal") refusals.push(part.refusal ?? "");
      }
    } else if (item?.type === "function_call") {
      hasToolCalls = true;
      const call = toToolCall({ ...(item.call_id && { id: item.call_id }), name: item.name ?? "", arguments: item.arguments ?? "" });
      content.push({ tool_call: { tool_name: call.toolName, arguments: call.arguments as Record<string, unknown> | string, id: call.id ?? null } });
    } else if (item?.type === "reasoning") {
      const { text, extra } = reasoningContentOf(item);
      content.push({ reasoning: { reasoning_text: text, extra } });
    }
  }
  // As Chat Completions replies: empty text counts as none, and a refusal is the text when there is no other.
  const refusal = refusals.length > 0 ? refusals.join("") : null;
  const text = texts.join("") || refusal || undefined;
  if (textAt !== undefined) {
    if (text === undefined) content.splice(textAt, 1);
    else content[textAt] = { text };
  }
  const usage = toUsage(response.usage && { prompt_tokens: response.usage.input_tokens, completion_tokens: response.usage.output_tokens, total_tokens: response.usage.total_tokens });
  const finishReason = finishReasonOf(response, hasToolCalls);
  const meta = replyMeta({ model: response.model ?? undefined, id: response.id ?? undefined, status: response.status ?? undefined, finishReason, usage });
  const reply = ChatMessage.fromJSON({ role: "assistant", meta: replyMeta(meta, refusal), name: null, content });
  return { replies: [reply], meta: { ...meta, finishReason } };
}

/** The ChatGeneratorError of a failed response or an `error` stream event: the provider's message, when it sent one. */
export function responseFailure(model: string, error: ProviderError): ChatGeneratorError {
  const providerMessage = error?.message || undefined;
  if (providerMessage === undefined) return providerFault(model, `the response failed without an error message${error?.code ? ` (code ${truncateForEcho(error.code)})` : ""}.`);
  return new ChatGeneratorError(`OpenAI request for model '${model}' failed: ${providerMessage}`, { providerMessage });
}

function finishReasonOf(response: ProviderResponse, hasToolCalls: boolean): string {
  if (response.status === "incomplete") {
    const reason = response.incomplete_details?.reason;
    return reason === "max_output_tokens" ? "length" : reason === "content_filter" ? "content_filter" : "incomplete";
  }
  return hasToolCalls ? "tool_calls" : "stop";
}

/**
 * A reasoning item as a reasoning part: the summary texts joined by blank lines, and as `extra`
 * the item as the next request sends it back (type, id, summary, encrypted content, and the
 * reasoning text when a server sends it; other fields are left out).
 */
function reasoningContentOf(item: ProviderReasoningItem): ReasoningContent & { extra: Record<string, unknown> } {
  const summary = (item.summary ?? []).flatMap((part) => (part ? [{ type: "summary_text", text: part.text ?? "" }] : []));
  const content = item.content?.flatMap((part) => (part ? [{ type: "reasoning_text", text: part.text ?? "" }] : []));
  const extra = {
    type: "reasoning",
    ...(item.id != null && { id: item.id }),
    summary,
    ...(item.encrypted_content != null && { encrypted_content: item.encrypted_content }),
    ...(content && { content }),
  };
  return { text: summary.map((part) => part.text).join("\n\n"), extra };
}
