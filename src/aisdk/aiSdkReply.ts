import { randomUUID } from "node:crypto";
import type { ChatGeneratorResponse, TokenUsage } from "../chat/chatGenerator";
import { ChatMessage, type ReasoningContent, type ToolCall } from "../chat/chatMessage";
import { parseToolArguments } from "../chat/toolArguments";
import { ChatGeneratorError } from "../errors";
import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";
import { setOwn } from "../util/ownProperty";
import { isRecord } from "./isRecord";
import type { ReplySize } from "./replySize";
import { type ModelCall, providerFault } from "./toChatGeneratorError";

// What toolwright reads from a model's result or stream parts. A model's output is untrusted: a
// field a reply is made of (text, a tool name) must have its type, else the call fails with a
// ChatGeneratorError that says where; bookkeeping (usage, ids, metadata) of the wrong type is left out.

/** What one reply is made of, in order. */
export interface ReplyParts {
  readonly text: string;
  readonly reasoning: readonly ReasoningContent[];
  readonly toolCalls: readonly ToolCall[];
}

/** What the model said about its reply. */
export interface ReplyInfo {
  /** The model id of the response, when the provider sent one. */
  readonly responseModel?: string;
  /** The response id, when the provider sent one. */
  readonly responseId?: string;
  readonly finishReason: FinishReason;
  readonly usage?: TokenUsage;
  /** The provider's warnings about the call (settings it ignored, …). */
  readonly warnings: readonly string[];
}

/** A finish reason in toolwright's (OpenAI-style) words, with the provider's own. */
export interface FinishReason {
  readonly reason: string;
  readonly raw?: string;
}

// The specification's unified finish reasons, in the words the rest of toolwright uses.
const finishReasons: Readonly<Record<string, string>> = {
  stop: "stop",
  length: "length",
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
  error: "error",
  other: "other",
};

/**
 * Reads a finish reason (`{ unified, raw }`): `tool-calls` becomes `tool_calls`, `content-filter`
 * `content_filter`, an unknown or missing one `other`. V4's `interrupted` (the provider's stream
 * ended without a completion signal) rejects with a ChatGeneratorError: the reply is incomplete,
 * and an incomplete reply is never taken for a whole one.
 */
export function readFinishReason(value: unknown, call: ModelCall): FinishReason {
  const { unified, raw } = isRecord(value) ? value : {};
  if (unified === "interrupted") throw providerFault(call, "the model's output ended without a completion signal (finish reason 'interrupted'); the reply is incomplete.");
  const reason = typeof unified === "string" && Object.hasOwn(finishReasons, unified) ? finishReasons[unified]! : "other";
  return typeof raw === "string" ? { reason, raw } : { reason };
}

/** Reads usage (`inputTokens.total`, `outputTokens.total`), keeping only counts that are whole numbers from 0 up. */
export function readUsage(value: unknown): TokenUsage | undefined {
  if (!isRecord(value)) return undefined;
  const promptTokens = countOf(value.inputTokens);
  const completionTokens = countOf(value.outputTokens);
  if (promptTokens === undefined && completionTokens === undefined) return undefined;
  const totalTokens = promptTokens !== undefined && completionTokens !== undefined ? promptTokens + completionTokens : undefined;
  return {
    ...(promptTokens !== undefined && { promptTokens }),
    ...(completionTokens !== undefined && { completionTokens }),
    ...(totalTokens !== undefined && Number.isSafeInteger(totalTokens) && { totalTokens }),
  };
}

function countOf(tokens: unknown): number | undefined {
  const total = isRecord(tokens) ? tokens.total : undefined;
  return typeof total === "number" && Number.isSafeInteger(total) && total >= 0 ? total : undefined;
}

/** Reads the warnings of a result or `stream-start` part as one line each. */
export function readWarnings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const lines: string[] = [];
  // A provider warns about a handful of settings; a flood is cut, not carried along.
  for (const warning of value.slice(0, 20)) {
    if (!isRecord(warning)) continue;
    const text = [warning.type, warning.feature, warning.details, warning.message].filter((item) => typeof item === "string" && item !== "").join(": ");
    if (text !== "") lines.push(text.length > 1000 ? `${text.slice(0, 1000)}…` : text);
  }
  return lines;
}

/** A string field of a part, or undefined when absent; any other type is a ChatGeneratorError naming the part (`where()`). */
export function readText(part: Record<string, unknown>, field: string, where: () => string, call: ModelCall): string | undefined {
  const value = part[field];
  if (value === undefined || typeof value === "string") return value;
  throw providerFault(call, `${where()} has a ${field} that is not a string (${kindOf(value)}).`);
}

/** A string of bookkeeping (an id, a model id), or undefined when it is anything else. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Provider metadata keyed by provider, as the AI SDK gives it and takes it back. */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/**
 * The provider metadata of a reasoning part or tool call as a JSON copy, to keep in its `extra`
 * and send back as the part's provider options; undefined when it is not an object of objects
 * with a JSON form within the nesting limit.
 */
export function readProviderMetadata(value: unknown, size: ReplySize): ProviderMetadata | undefined {
  if (!isRecord(value) || nestingDepthExceeds(value, limits.maxArgumentDepth - 2)) return undefined;
  try {
    const copy: unknown = JSON.parse(size.count(JSON.stringify(value)));
    return isRecord(copy) && Object.values(copy).every(isRecord) ? (copy as ProviderMetadata) : undefined;
  } catch (error) {
    if (error instanceof ChatGeneratorError) throw error;
    return undefined;
  }
}

/** Merges provider metadata that arrives in pieces (Anthropic's signature comes after the thinking text, a tool call's on its start and its end): per provider, later keys win. */
export function mergeMetadata(
  sofar: ProviderMetadata | undefined,
  more: ProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (!more) return sofar;
  if (!sofar) return more;
  const merged = { ...sofar };
  for (const [provider, entries] of Object.entries(more)) setOwn(merged, provider, { ...(Object.hasOwn(sofar, provider) ? sofar[provider] : {}), ...entries });
  return merged;
}

/**
 * A reasoning item: `extra.provider` is the AI SDK provider id that made it (the origin
 * toAiSdkPrompt checks), `extra.providerMetadata` its provider metadata.
 */
export function reasoningContent(text: string, metadata: ProviderMetadata | undefined, provider: string): ReasoningContent {
  return { text, extra: metadata ? { provider, providerMetadata: metadata } : { provider } };
}

/**
 * A tool call from a call's id, name and input (JSON text), with its provider metadata (Gemini's
 * thought signature) and the provider id that made it in `extra`. A missing id gets one made up
 * (results are paired with calls by id); input that is not valid JSON for an object stays the raw
 * text, which the tool-calling step answers with an error the model can act on.
 */
export function toolCallOf(id: string | undefined, toolName: string, input: string, metadata: ProviderMetadata | undefined, provider: string): ToolCall {
  const call = { id: id || `call_${randomUUID()}`, toolName, arguments: parseToolArguments(input) };
  return metadata ? { ...call, extra: { provider, providerMetadata: metadata } } : call;
}

/** A tool call's input as JSON text: the specification's string, or the JSON of an object some models give instead. */
export function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  if (input === undefined || input === null) return "";
  try {
    return JSON.stringify(input) ?? "";
  } catch {
    return String(input);
  }
}

/** The response of a call: one assistant reply (text only when non-empty), with the response's meta (warnings included) on it too. */
export function buildResponse(parts: ReplyParts, info: ReplyInfo, model: string): ChatGeneratorResponse {
  const responseModel = info.responseModel ?? model;
  const { reason, raw } = info.finishReason;
  const meta = {
    model: responseModel,
    index: 0,
    finishReason: reason,
    ...(raw !== undefined && { rawFinishReason: raw }),
    ...(info.usage && { usage: info.usage }),
    ...(info.warnings.length > 0 && { warnings: info.warnings }),
  };
  const reply = ChatMessage.fromAssistant(parts.text === "" ? undefined : parts.text, { reasoning: parts.reasoning, toolCalls: parts.toolCalls, meta });
  return {
    replies: [reply],
    meta: {
      model: responseModel,
      ...(info.responseId !== undefined && { id: info.responseId }),
      finishReason: reason,
      ...(info.usage && { usage: info.usage }),
      ...(info.warnings.length > 0 && { warnings: info.warnings }),
    },
  };
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}
