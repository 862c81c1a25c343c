import { type MockReply, type MockResponse, type MockToolCall, type NamedEvent, split } from "./mockOpenAIServer";

/** A reasoning item of a scripted Responses API reply. */
export interface MockReasoning {
  readonly id: string;
  /** The summary parts' texts. */
  readonly summary?: readonly string[];
  readonly encryptedContent?: string;
}

/**
 * What a scripted Responses API reply contains: a Chat Completions reply's parts (its finish
 * reason aside), reasoning items and a status. Output items come in the order reasoning, message,
 * function calls.
 */
export interface MockResponsesReply extends Omit<MockReply, "finishReason"> {
  readonly reasoning?: readonly MockReasoning[];
  /** Default `completed`. */
  readonly status?: "completed" | "incomplete" | "failed";
  /** With status `incomplete`. */
  readonly incompleteReason?: "max_output_tokens" | "content_filter";
  /** With status `failed`. */
  readonly error?: { readonly code: string; readonly message: string };
  /** Default `resp_mock`. */
  readonly id?: string;
}

function reasoningItem(reasoning: MockReasoning) {
  return {
    id: reasoning.id,
    type: "reasoning",
    summary: (reasoning.summary ?? []).map((text) => ({ type: "summary_text", text })),
    ...(reasoning.encryptedContent !== undefined && { encrypted_content: reasoning.encryptedContent }),
  };
}

function messageItem(reply: MockResponsesReply) {
  const content = [
    ...(reply.text !== undefined ? [{ type: "output_text", text: reply.text, annotations: [], logprobs: [] }] : []),
    ...(reply.refusal !== undefined ? [{ type: "refusal", refusal: reply.refusal }] : []),
  ];
  return { id: "msg_mock", type: "message", status: "completed", role: "assistant", content };
}

function functionCallItem(call: MockToolCall, index: number) {
  return { id: `fc_mock_${index}`, type: "function_call", status: "completed", call_id: call.id, name: call.name, arguments: call.arguments };
}

/** The output items of a reply, as the API lists them. */
export function outputItems(reply: MockResponsesReply): object[] {
  const hasMessage = reply.text !== undefined || reply.refusal !== undefined;
  return [...(reply.reasoning ?? []).map(reasoningItem), ...(hasMessage ? [messageItem(reply)] : []), ...(reply.toolCalls ?? []).map(functionCallItem)];
}

/** The `response` object of a reply, as a JSON body or a stream's final event carries it. */
export function responseObject(reply: MockResponsesReply, output: readonly object[] = outputItems(reply)): object {
  const status = reply.status ?? "completed";
  const usage = reply.usage && {
    input_tokens: reply.usage.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: reply.usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
  };
  // The fields of OpenAI's recorded responses (test/fixtures/vendors/openai), in their order.
  return {
    id: reply.id ?? "resp_mock",
    object: "response",
    created_at: 1700000000,
    status,
    background: false,
    billing: { payer: "developer" },
    error: status === "failed" ? (reply.error ?? { code: "server_error", message: "The model failed." }) : null,
    incomplete_details: status === "incomplete" ? { reason: reply.incompleteReason ?? "max_output_tokens" } : null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: reply.model ?? "mock-model-1",
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    prompt_cache_retention: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    store: false,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: [],
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: usage ?? null,
    user: null,
    metadata: {},
  };
}

/** A non-streaming Responses API answer. */
export function responsesJson(reply: MockResponsesReply): MockResponse {
  return { kind: "json", body: responseObject(reply) };
}

/**
 * A streamed Responses API answer, with the events the API sends: `response.created`, each output
 * item added, its deltas (reasoning summary text, output text, refusal, function-call arguments,
 * each split into `pieces`) and done, and the final `response.completed` (`.incomplete`,
 * `.failed`) with the whole response — with `emptyFinalOutput`, with an empty output list, as some
 * compatible servers send it. With `hang`, the stream stays open after the events; with `end`,
 * it stops after that many events.
 */
export function responsesStream(reply: MockResponsesReply, options: { pieces?: number; hang?: boolean; emptyFinalOutput?: boolean; end?: number } = {}): MockResponse {
  const events: NamedEvent[] = [];
  const push = (type: string, fields: object) => events.push({ event: type, data: { type, sequence_number: events.length, ...fields } });
  push("response.created", { response: { ...responseObject(reply, []), status: "in_progress", usage: null } });
  push("response.in_progress", { response: { ...responseObject(reply, []), status: "in_progress", usage: null } });
  const items = outputItems(reply) as Array<Record<string, any>>;
  for (const [outputIndex, item] of items.entries()) {
    const at = { output_index: outputIndex, item_id: item.id };
    if (item.type === "reasoning") {
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, summary: [], encrypted_content: undefined } });
      for (const [summaryIndex, part] of (item.summary as Array<{ text: string }>).entries()) {
        push("response.reasoning_summary_part.added", { ...at, summary_index: summaryIndex, part: { type: "summary_text", text: "" } });
        for (const delta of split(part.text, options.pieces)) push("response.reasoning_summary_text.delta", { ...at, summary_index: summaryIndex, delta });
        push("response.reasoning_summary_text.done", { ...at, summary_index: summaryIndex, text: part.text });
        push("response.reasoning_summary_part.done", { ...at, summary_index: summaryIndex, part: { type: "summary_text", text: part.text } });
      }
    } else if (item.type === "message") {
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", content: [] } });
      for (const [contentIndex, part] of (item.content as Array<Record<string, string>>).entries()) {
        const where = { ...at, content_index: contentIndex };
        if (part.type === "output_text") {
          push("response.content_part.added", { ...where, part: { type: "output_text", text: "", annotations: [] } });
          for (const delta of split(part.text!, options.pieces)) push("response.output_text.delta", { ...where, delta, logprobs: [] });
          push("response.output_text.done", { ...where, text: part.text, logprobs: [] });
        } else {
          push("response.content_part.added", { ...where, part: { type: "refusal", refusal: "" } });
          for (const delta of split(part.refusal!, options.pieces)) push("response.refusal.delta", { ...where, delta });
          push("response.refusal.done", { ...where, refusal: part.refusal });
        }
        push("response.content_part.done", { ...where, part });
      }
    } else {
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
      for (const delta of split(item.arguments as string, options.pieces)) push("response.function_call_arguments.delta", { ...at, delta });
      push("response.function_call_arguments.done", { ...at, name: item.name, arguments: item.arguments });
    }
    push("response.output_item.done", { output_index: outputIndex, item });
  }
  const status = reply.status ?? "completed";
  push(`response.${status}`, { response: responseObject(reply, options.emptyFinalOutput ? [] : items) });
  return { kind: "events", events: options.end === undefined ? events : events.slice(0, options.end), ...(options.hang && { hang: true }) };
}
