import type { ResponseFormat, ToolSpec } from "../chat/chatGenerator";
import type { ChatMessage, ReasoningContent, ToolCall } from "../chat/chatMessage";
import { strictFormOf, toStrictSchema } from "../chat/toStrictSchema";
import { ConfigurationError } from "../errors";
import { isPlainObject } from "../util/isPlainObject";
import { truncateForEcho } from "../util/truncate";
import type { AISdkCallOptions, AISdkFunctionTool, AISdkJsonObject, AISdkMessage, AISdkProviderOptions, AISdkReasoningPart, AISdkToolCallPart } from "./languageModel";

/**
 * Converts the conversation to a LanguageModel prompt for the model of AI SDK provider `provider`
 * (`anthropic.messages`): an assistant message's parts in the order reasoning, text, tool calls, and
 * one tool message per tool result, its output `error-text` when the result is an error. Reasoning
 * goes only to the provider that made it, with the provider options it came with (Anthropic's
 * thinking signature); a tool call's provider metadata (Gemini's thought signature) goes back as its
 * provider options, to that provider only.
 */
export function toAiSdkPrompt(messages: readonly ChatMessage[], provider: string): AISdkMessage[] {
  const prompt: AISdkMessage[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.text ?? "" });
        break;
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: message.text ?? "" }] });
        break;
      case "assistant":
        prompt.push({ role: "assistant", content: assistantContent(message, index, provider) });
        break;
      case "tool":
        for (const part of message.content) {
          if (part.type !== "toolCallResult") continue;
          const { origin, error, result } = part.toolCallResult;
          const toolCallId = requireId(origin, `messages[${index}] is the result of a call`);
          prompt.push({ role: "tool", content: [{ type: "tool-result", toolCallId, toolName: origin.toolName, output: { type: error ? "error-text" : "text", value: result } }] });
        }
        break;
    }
  }
  return prompt;
}

// One pass over the parts, which go out in the order reasoning, text (the first, as `text` reads it), tool calls.
function assistantContent(message: ChatMessage, index: number, provider: string): Extract<AISdkMessage, { role: "assistant" }>["content"] {
  const reasoning: AISdkReasoningPart[] = [];
  const calls: AISdkToolCallPart[] = [];
  let text: string | undefined;
  for (const part of message.content) {
    if (part.type === "reasoning") {
      const own = ownReasoning(part.reasoning, provider);
      if (own) reasoning.push(own);
    } else if (part.type === "text") text ??= part.text;
    else if (part.type === "toolCall") {
      const call = part.toolCall;
      const providerOptions = ownMetadata(call.extra, provider);
      calls.push({ type: "tool-call", toolCallId: requireId(call, `messages[${index}].toolCalls[${calls.length}] is a call`), toolName: call.toolName, input: inputOf(call), ...(providerOptions && { providerOptions }) });
    }
  }
  if (reasoning.length === 0 && calls.length === 0) return text ? [{ type: "text", text }] : [];
  return [...reasoning, ...(text ? [{ type: "text" as const, text }] : []), ...calls];
}

// Reasoning this adapter made records its provider in `extra.provider` (see aiSdkReply); parts
// from before it did are known by their metadata's provider key (`anthropic` for
// `anthropic.messages`). Any other reasoning (the Responses API's items, another provider's, one
// written by hand) is left out: a provider cannot check it, and may reject it or take it as its own.
function ownReasoning(reasoning: ReasoningContent, provider: string): AISdkReasoningPart | undefined {
  const { extra } = reasoning;
  const metadata = usableMetadata(extra.providerMetadata);
  const origin = extra.provider;
  const own = typeof origin === "string" ? origin === provider : metadata !== undefined && Object.hasOwn(metadata, provider.split(".")[0]!);
  if (!own) return undefined;
  return metadata ? { type: "reasoning", text: reasoning.text, providerOptions: metadata } : { type: "reasoning", text: reasoning.text };
}

// A tool call's provider metadata, when this provider made it.
function ownMetadata(extra: ToolCall["extra"], provider: string): AISdkProviderOptions | undefined {
  return extra !== undefined && extra.provider === provider ? usableMetadata(extra.providerMetadata) : undefined;
}

function usableMetadata(metadata: unknown): AISdkProviderOptions | undefined {
  return isPlainObject(metadata) && Object.values(metadata).every(isPlainObject) ? (metadata as AISdkProviderOptions) : undefined;
}

// Arguments the model sent as text that is not a JSON object go back as `{}`: providers need an
// object here (Anthropic refuses anything else), and the tool result already tells the model what
// was wrong with what it sent.
function inputOf(call: ToolCall): AISdkJsonObject {
  return typeof call.arguments === "string" ? {} : (call.arguments as AISdkJsonObject);
}

function requireId(call: ToolCall, subject: string): string {
  if (call.id) return call.id;
  throw new ConfigurationError(
    "AISdkChatGenerator",
    `AISdkChatGenerator cannot send the conversation: ${subject} to '${truncateForEcho(call.toolName)}' without an id; the LanguageModel prompt pairs tool results with calls by id, so give every ToolCall an id.`,
  );
}

/** Converts tool specs to function tools: with `strict`, a strict-compatible schema goes in strict form with `strict: true`. */
export function toAiSdkTools(tools: readonly ToolSpec[], strict: boolean, provider: string): AISdkFunctionTool[] {
  const saysNotStrict = strictUnlessTold(provider);
  return tools.map((tool) => {
    const useStrict = strict && tool.strict;
    return {
      type: "function",
      name: tool.name,
      description: tool.description,
      inputSchema: (useStrict ? toStrictSchema(tool.parameters) : tool.parameters) as Record<string, unknown>,
      ...(useStrict ? { strict: true } : saysNotStrict && { strict: false }),
    };
  });
}

// OpenAI's Responses API (`@ai-sdk/openai`'s `openai.responses`, and Azure's through the same
// package) takes a function tool without `strict` as strict, and refuses a schema that cannot be:
// those providers are told `strict: false`. Others are not, as some of them warn about any
// `strict` they do not support.
function strictUnlessTold(provider: string): boolean {
  return provider.endsWith(".responses");
}

/**
 * The call's `responseFormat`: JSON with the run's output schema, its name and description. A
 * strict-compatible schema goes in its strict form (optional properties required and nullable,
 * every object closed), as `@ai-sdk/openai` sends it with `strict: true` unless told otherwise.
 */
export function toAiSdkResponseFormat(format: ResponseFormat): NonNullable<AISdkCallOptions["responseFormat"]> {
  return {
    type: "json",
    schema: (format.strict ? strictFormOf(format.schema) : format.schema) as Record<string, unknown>,
    name: format.name,
    ...(format.description !== undefined && { description: format.description }),
  };
}

/**
 * The call's provider options for a run's answer format: for a schema that is not
 * strict-compatible, `openai.strictJsonSchema: false`, since `@ai-sdk/openai` sends every answer
 * schema with `strict: true` by default and OpenAI refuses such a schema in strict mode; a
 * `strictJsonSchema` the caller set is kept. Other providers ignore the `openai` key.
 */
export function responseFormatProviderOptions(providerOptions: AISdkProviderOptions | undefined, format: ResponseFormat): AISdkProviderOptions | undefined {
  if (format.strict || (providerOptions?.openai !== undefined && Object.hasOwn(providerOptions.openai, "strictJsonSchema"))) return providerOptions;
  return { ...providerOptions, openai: { ...providerOptions?.openai, strictJsonSchema: false } };
}
