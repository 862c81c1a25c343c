import { randomUUID } from "node:crypto";
import type OpenAI from "openai";
import type { ToolSpec, TokenUsage } from "../chatGenerator";
import { nestingDepthExceeds } from "../../util/jsonShape";
import { limits } from "../../util/limits";
import { ChatMessage, type ToolCall } from "../chatMessage";
import type { ProviderUsage } from "./responseSchemas";
import { toStrictSchema } from "./strictSchema";

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ToolParam = OpenAI.Chat.Completions.ChatCompletionTool;

/** Converts the conversation to Chat Completions messages: one `tool` message per tool result. */
export function toOpenAIMessages(messages: readonly ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const [index, message] of messages.entries()) {
    const name = message.name === undefined ? {} : { name: message.name };
    switch (message.role) {
      case "system":
        out.push({ role: "system", content: message.text ?? "", ...name });
        break;
      case "user":
        out.push({ role: "user", content: message.text ?? "", ...name });
        break;
      case "assistant": {
        const calls = message.toolCalls;
        out.push({
          role: "assistant",
          content: message.text ?? null,
          ...name,
          ...(calls.length > 0 && { tool_calls: calls.map((call, i) => toOpenAIToolCall(call, index, i)) }),
        });
        break;
      }
      case "tool":
        for (const result of message.toolCallResults) {
          out.push({ role: "tool", tool_call_id: requireId(result.origin, `messages[${index}] is the result of a call`), content: result.result });
        }
        break;
    }
  }
  return out;
}

function toOpenAIToolCall(call: ToolCall, messageIndex: number, callIndex: number): OpenAI.Chat.Completions.ChatCompletionMessageToolCall {
  const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
  return { id: requireId(call, `messages[${messageIndex}].toolCalls[${callIndex}] is a call`), type: "function", function: { name: call.toolName, arguments: args } };
}

function requireId(call: ToolCall, subject: string): string {
  if (call.id) return call.id;
  throw new TypeError(`${subject} to '${call.toolName}' without an id; the Chat Completions API pairs tool results with calls by id, so give every ToolCall an id.`);
}

/** Converts tool specs: with `strict`, a strict-compatible schema is sent in strict form. */
export function toOpenAITools(tools: readonly ToolSpec[], strict: boolean): ToolParam[] {
  return tools.map((tool) => {
    const useStrict = strict && tool.strict;
    return {
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: (useStrict ? toStrictSchema(tool.parameters) : tool.parameters) as Record<string, unknown>,
        ...(useStrict && { strict: true }),
      },
    };
  });
}

/**
 * Parses a tool call's arguments. Text that is not valid JSON, not an object, or nested deeper than
 * `limits.maxArgumentDepth` is kept as the raw string, so the tool-calling step can tell the model
 * exactly what was wrong (never a silent drop, never a stack overflow). Empty text counts as `{}`
 * (some servers send it for calls without arguments).
 */
export function parseToolArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    const isObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
    return isObject && !nestingDepthExceeds(parsed, limits.maxArgumentDepth) ? (parsed as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}

/** The message meta toolwright records for a reply. */
export interface ReplyMeta {
  readonly model?: string;
  readonly index: number;
  readonly finishReason?: string;
  readonly usage?: TokenUsage;
  readonly refusal?: string;
}

/**
 * Builds the ChatMessage of one choice; a refusal becomes the text (and `meta.refusal`), so it is
 * visible. Empty content counts as no text, as it does when streamed (a stream sends no empty delta).
 */
export function assistantReply(parts: { content: string | null; refusal: string | null; toolCalls: Array<{ id?: string; name: string; arguments: string }> }, meta: ReplyMeta): ChatMessage {
  const text = parts.content || parts.refusal || undefined;
  // Chat Completions pairs results with calls by id; a server that leaves it out gets one made up,
  // so the next request does not fail on the call.
  const toolCalls: ToolCall[] = parts.toolCalls.map((call) => ({ id: call.id || `call_${randomUUID()}`, toolName: call.name, arguments: parseToolArguments(call.arguments) }));
  const cleanMeta = Object.fromEntries(Object.entries({ ...meta, refusal: parts.refusal ?? undefined }).filter(([, v]) => v !== undefined));
  return ChatMessage.fromAssistant(text, { toolCalls, meta: cleanMeta });
}

/** Converts the provider's usage object, keeping only the counts it reported. */
export function toUsage(usage: ProviderUsage): TokenUsage | undefined {
  if (!usage) return undefined;
  const counts = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: usage.total_tokens };
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => typeof count === "number"));
}
