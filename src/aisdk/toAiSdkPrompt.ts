import type { ResponseFormat, ToolSpec } from "../chat/chatGenerator";
import type { ChatMessage, ReasoningContent, ToolCall } from "../chat/chatMessage";
import { strictFormOf, toStrictSchema } from "../chat/openai/strictSchema";
import { ConfigurationError } from "../errors";
import { isPlainObject } from "../util/isPlainObject";
import { truncateForEcho } from "../util/truncate";
import type { AISdkCallOptions, AISdkFunctionTool, AISdkJsonObject, AISdkMessage, AISdkProviderOptions, AISdkReasoningPart, AISdkToolCallPart } from "./languageModel";

/**
 * Converts the conversation to a LanguageModel prompt: an assistant message's parts in the order
 * reasoning, text, tool calls (reasoning with the provider options it came with, so Anthropic's
 * thinking signatures go back), and one tool message per tool result, its output `error-text`
 * when the result is an error.
 */
export function toAiSdkPrompt(messages: readonly ChatMessage[]): AISdkMessage[] {
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
        prompt.push({ role: "assistant", content: assistantContent(message, index) });
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
function assistantContent(message: ChatMessage, index: number): Extract<AISdkMessage, { role: "assistant" }>["content"] {
  const reasoning: AISdkReasoningPart[] = [];
  const calls: AISdkToolCallPart[] = [];
  let text: string | undefined;
  for (const part of message.content) {
    if (part.type === "reasoning") reasoning.push(toReasoningPart(part.reasoning));
    else if (part.type === "text") text ??= part.text;
    else if (part.type === "toolCall") {
      const call = part.toolCall;
      calls.push({ type: "tool-call", toolCallId: requireId(call, `messages[${index}].toolCalls[${calls.length}] is a call`), toolName: call.toolName, input: inputOf(call) });
    }
  }
  if (reasoning.length === 0 && calls.length === 0) return text ? [{ type: "text", text }] : [];
  return [...reasoning, ...(text ? [{ type: "text" as const, text }] : []), ...calls];
}

// What the generator stored in `extra` (see aiSdkReply): the part's provider metadata, which the
// provider reads back as the prompt part's provider options.
function toReasoningPart(reasoning: ReasoningContent): AISdkReasoningPart {
  const metadata = reasoning.extra.providerMetadata;
  const usable = isPlainObject(metadata) && Object.values(metadata).every(isPlainObject);
  return usable ? { type: "reasoning", text: reasoning.text, providerOptions: metadata as AISdkProviderOptions } : { type: "reasoning", text: reasoning.text };
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
export function toAiSdkTools(tools: readonly ToolSpec[], strict: boolean): AISdkFunctionTool[] {
  return tools.map((tool) => {
    const useStrict = strict && tool.strict;
    return {
      type: "function",
      name: tool.name,
      description: tool.description,
      inputSchema: (useStrict ? toStrictSchema(tool.parameters) : tool.parameters) as Record<string, unknown>,
      ...(useStrict && { strict: true }),
    };
  });
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
