import { randomUUID } from "node:crypto";
import type OpenAI from "openai";
import { ConfigurationError } from "../../errors";
import type { ResponseFormat, ToolSpec, TokenUsage } from "../chatGenerator";
import { ChatMessage, type ToolCall } from "../chatMessage";
import { parseToolArguments } from "../toolArguments";
import type { ProviderUsage } from "./completionSchemas";
import { strictFormOf, toStrictSchema } from "../toStrictSchema";

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
          out.push({ role: "tool", tool_call_id: requireCallId(result.origin, `messages[${index}] is the result of a call`, "Chat Completions API"), content: result.result });
        }
        break;
    }
  }
  return out;
}

function toOpenAIToolCall(call: ToolCall, messageIndex: number, callIndex: number): OpenAI.Chat.Completions.ChatCompletionMessageToolCall {
  const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
  return { id: requireCallId(call, `messages[${messageIndex}].toolCalls[${callIndex}] is a call`, "Chat Completions API"), type: "function", function: { name: call.toolName, arguments: args } };
}

/** The call's id, which `api` needs to pair the call with its result; a call without one is a ConfigurationError. */
export function requireCallId(call: ToolCall, subject: string, api: string): string {
  if (call.id) return call.id;
  throw new ConfigurationError("ChatMessage", `${subject} to '${call.toolName}' without an id; the ${api} pairs tool results with calls by id, so give every ToolCall an id.`);
}

// Moved to src/chat so that other generators share it; re-exported for existing imports.
export { parseToolArguments };

/** Converts tool specs: with `strict`, a strict-compatible schema is sent in strict form. */
export function toOpenAITools(tools: readonly ToolSpec[], strict: boolean): ToolParam[] {
  return tools.map((tool) => {
    const { parameters, strict: useStrict } = toolParameters(tool, strict);
    return { type: "function", function: { name: tool.name, description: tool.description, parameters, ...(useStrict && { strict: true }) } };
  });
}

/**
 * A tool's parameter schema as sent: with `strict` (the generator's `toolsStrict`) and a
 * strict-compatible schema, its strict form and `strict: true`; else the schema as it is.
 */
export function toolParameters(tool: ToolSpec, strict: boolean): { parameters: Record<string, unknown>; strict: boolean } {
  const useStrict = strict && tool.strict;
  return { parameters: (useStrict ? toStrictSchema(tool.parameters) : tool.parameters) as Record<string, unknown>, strict: useStrict };
}

/** The run's answer shape as Chat Completions' `response_format`. */
export function toResponseFormat(format: ResponseFormat): OpenAI.ResponseFormatJSONSchema {
  return { type: "json_schema", json_schema: jsonSchemaFormat(format) };
}

/**
 * The fields both OpenAI APIs take for a JSON Schema answer format: name, description (when there
 * is one), schema and strict. A strict-compatible schema goes in its strict form with
 * `strict: true`; any other goes as it is with `strict: false` (the API would refuse it in strict
 * mode; `false` is sent rather than left out, as the Responses API makes a function tool strict
 * when `strict` is left out). The Agent validates the answer either way.
 */
export function jsonSchemaFormat(format: ResponseFormat): { name: string; schema: Record<string, unknown>; strict: boolean; description?: string } {
  return {
    name: format.name,
    ...(format.description !== undefined && { description: format.description }),
    schema: (format.strict ? strictFormOf(format.schema) : format.schema) as Record<string, unknown>,
    strict: format.strict,
  };
}

/** The message meta toolwright records for a reply (model, finish reason, usage, …); undefined values are left out. */
export type ReplyMeta = Readonly<Record<string, unknown>>;

/** What a reply is made of, as read from the provider. */
export interface ReplyParts {
  readonly content: string | null;
  readonly refusal: string | null;
  readonly toolCalls: ReadonlyArray<{ readonly id?: string; readonly name: string; readonly arguments: string }>;
}

/**
 * Builds the ChatMessage of one reply; a refusal becomes the text (and `meta.refusal`), so it is
 * visible. Empty content counts as no text, as it does when streamed (a stream sends no empty delta).
 */
export function assistantReply(parts: ReplyParts, meta: ReplyMeta): ChatMessage {
  const text = parts.content || parts.refusal || undefined;
  return ChatMessage.fromAssistant(text, { toolCalls: parts.toolCalls.map(toToolCall), meta: replyMeta(meta, parts.refusal) });
}

/**
 * A provider's tool call as a ToolCall, its arguments parsed (see parseToolArguments). Both OpenAI
 * APIs pair results with calls by id; a call without one gets one made up, so that the next
 * request does not fail on it.
 */
export function toToolCall(call: { readonly id?: string; readonly name: string; readonly arguments: string }): ToolCall {
  return { id: call.id || `call_${randomUUID()}`, toolName: call.name, arguments: parseToolArguments(call.arguments) };
}

/** A reply's meta: `meta` and the refusal, if any, without the fields that are undefined. */
export function replyMeta(meta: ReplyMeta, refusal?: string | null): Record<string, unknown> {
  return Object.fromEntries(Object.entries({ ...meta, refusal: refusal ?? undefined }).filter(([, v]) => v !== undefined));
}

/** Converts the provider's usage object, keeping only the counts it reported. */
export function toUsage(usage: ProviderUsage): TokenUsage | undefined {
  if (!usage) return undefined;
  const counts = { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens, totalTokens: usage.total_tokens };
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => typeof count === "number"));
}
