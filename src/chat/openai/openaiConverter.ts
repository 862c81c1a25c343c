import { randomUUID } from "node:crypto";
import type OpenAI from "openai";
import { ConfigurationError } from "../../errors";
import type { ResponseFormat, ToolSpec, TokenUsage } from "../chatGenerator";
import { ChatMessage, type ToolCall, type ToolCallResult } from "../chatMessage";
import { describeMedia, MediaWarnings } from "../../media/describeMedia";
import type { FileContent } from "../../media/fileContent";
import { ImageContent } from "../../media/imageContent";
import { openaiFilename, openaiImageRefusal } from "./openaiMedia";
import { parseToolArguments } from "../toolArguments";
import type { ProviderUsage } from "./completionSchemas";
import { strictFormOf, toStrictSchema } from "../toStrictSchema";

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ToolParam = OpenAI.Chat.Completions.ChatCompletionTool;

/**
 * Converts the conversation to Chat Completions messages: one `tool` message per tool result. A
 * user message with images or files becomes a content array (`text`, `image_url` with a data or
 * http(s) URL, `file` with a PDF as `file_data`). Tool messages take text only, so a tool result's
 * images and PDFs follow as one user message after the step's tool messages, as OpenAI documents,
 * the tool message saying so. A part the API cannot take (an image or file in a system or assistant
 * message, a file that is not a PDF or is a URL, an image type OpenAI does not read) becomes a short
 * description, recorded in `warnings` (see MediaWarnings).
 */
export function toOpenAIMessages(messages: readonly ChatMessage[], warnings = new MediaWarnings("OpenAIChatGenerator")): MessageParam[] {
  const out: MessageParam[] = [];
  let following: UserPart[] = [];
  for (const [index, message] of messages.entries()) {
    const name = message.name === undefined ? {} : { name: message.name };
    if (message.role !== "tool" && following.length > 0) {
      out.push({ role: "user", content: following });
      following = [];
    }
    switch (message.role) {
      case "system":
        out.push({ role: "system", content: describedText(message, index, warnings, "the Chat Completions API takes no images or files in system messages"), ...name });
        break;
      case "user":
        out.push({ role: "user", content: hasMedia(message) ? userParts(message, `messages[${index}]`, warnings) : message.text ?? "", ...name });
        break;
      case "assistant": {
        const calls = message.toolCalls;
        const text = hasMedia(message) ? describedText(message, index, warnings, "the Chat Completions API takes no images or files in assistant messages") : message.text;
        out.push({
          role: "assistant",
          content: text ?? null,
          ...name,
          ...(calls.length > 0 && { tool_calls: calls.map((call, i) => toOpenAIToolCall(call, index, i)) }),
        });
        break;
      }
      case "tool":
        for (const [i, result] of message.toolCallResults.entries()) {
          const id = requireCallId(result.origin, `messages[${index}] is the result of a call`, "Chat Completions API");
          const { text, parts } = toolResultContent(result, id, `messages[${index}].toolCallResults[${i}]`, warnings);
          out.push({ role: "tool", tool_call_id: id, content: text });
          following.push(...parts);
        }
        break;
    }
  }
  if (following.length > 0) out.push({ role: "user", content: following });
  return out;
}

type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

function hasMedia(message: ChatMessage): boolean {
  return message.content.some((part) => part.type === "image" || part.type === "file");
}

// A message's text parts with its images and files described in their place, one per line; the first text alone when it has none.
function describedText(message: ChatMessage, index: number, warnings: MediaWarnings, reason: string): string {
  if (!hasMedia(message)) return message.text ?? "";
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") lines.push(part.text);
    else if (part.type === "image" || part.type === "file") lines.push(warnings.describe(part.type === "image" ? part.image : part.file, `messages[${index}]`, reason));
  }
  return lines.join("\n");
}

function userParts(message: ChatMessage, where: string, warnings: MediaWarnings): UserPart[] {
  const parts: UserPart[] = [];
  for (const part of message.content) {
    if (part.type === "text") parts.push({ type: "text", text: part.text });
    else if (part.type === "image" || part.type === "file") parts.push(mediaPart(part.type === "image" ? part.image : part.file, where, warnings));
  }
  return parts;
}

// An image or a file as a user content part, or its description when the API cannot take it.
function mediaPart(media: ImageContent | FileContent, where: string, warnings: MediaWarnings): UserPart {
  const refusal = mediaRefusal(media);
  if (refusal !== undefined) return { type: "text", text: warnings.describe(media, where, refusal) };
  if (ImageContent.isImageContent(media)) return { type: "image_url", image_url: { url: media.toDataUrl(), ...(media.detail !== undefined && { detail: media.detail }) } };
  return { type: "file", file: { file_data: media.toDataUrl(), filename: openaiFilename(media) } };
}

// OpenAI's file-inputs guide: Chat Completions takes PDF files only, as data or a file id, never a URL.
function mediaRefusal(media: ImageContent | FileContent): string | undefined {
  if (ImageContent.isImageContent(media)) return openaiImageRefusal(media);
  if (media.url !== undefined) return "the Chat Completions API takes no file URLs (only PDF data); use OpenAIResponsesChatGenerator, or give the bytes";
  if (media.mimeType !== "application/pdf") return `the Chat Completions API takes PDF files only, not ${media.mimeType ?? "a file of unknown type"}; use OpenAIResponsesChatGenerator, or send the file's text`;
  return undefined;
}

/**
 * A tool result's text for its `tool` message, and the parts of the user message that follows the
 * step's tool messages: its text parts and the descriptions of its images and files in order, then
 * a line saying which follow.
 */
function toolResultContent(result: ToolCallResult, id: string, where: string, warnings: MediaWarnings): { text: string; parts: UserPart[] } {
  if (result.parts === undefined) return { text: result.result, parts: [] };
  const lines: string[] = [];
  const follow: UserPart[] = [];
  for (const part of result.parts) {
    if (part.type === "text") {
      lines.push(part.text);
      continue;
    }
    const media = part.type === "image" ? part.image : part.file;
    const refusal = mediaRefusal(media);
    if (refusal !== undefined) {
      lines.push(warnings.describe(media, where, refusal));
      continue;
    }
    lines.push(describeMedia(media));
    follow.push(mediaPart(media, where, warnings));
  }
  if (follow.length === 0) return { text: lines.join("\n"), parts: [] };
  lines.push(`(${follow.length === 1 ? "This image or file follows" : `These ${follow.length} images and files follow`} in the next user message.)`);
  const intro: UserPart = { type: "text", text: `The images and files of tool '${result.origin.toolName}' (call ${id}):` };
  return { text: lines.join("\n"), parts: [intro, ...follow] };
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
