import type OpenAI from "openai";
import { z } from "zod";
import { isPlainObject } from "../../util/isPlainObject";
import type { ResponseFormat, ToolSpec } from "../chatGenerator";
import type { ChatMessage, ToolResultPart } from "../chatMessage";
import { MediaWarnings } from "../../media/describeMedia";
import { openaiFilename, openaiImageRefusal } from "./openaiMedia";
import { jsonSchemaFormat, requireCallId, toolParameters } from "./openaiConverter";

type InputItem = OpenAI.Responses.ResponseInputItem;

const api = "Responses API";

/**
 * Converts the conversation to Responses API input items: system and user messages as message
 * items of their role (in place, so several system messages keep their order), an assistant
 * message's parts in their order (reasoning items, a message item with its text, a
 * `function_call` item per tool call), and a tool message as a `function_call_output` item per
 * result. A message's `name` is left out: the Responses API has no field for it. With `store`
 * false, reasoning without encrypted content is left out: OpenAI could not find it by its id.
 */
export function toResponsesInput(messages: readonly ChatMessage[], options: { readonly store: boolean; readonly warnings?: MediaWarnings }): InputItem[] {
  const warnings = options.warnings ?? new MediaWarnings(generator);
  const input: InputItem[] = [];
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case "system":
        input.push({ type: "message", role: "system", content: describedText(message, `messages[${index}]`, warnings, "the Responses API takes no images or files in system messages") });
        break;
      case "user":
        input.push({ type: "message", role: "user", content: userContent(message, `messages[${index}]`, warnings) });
        break;
      case "assistant":
        input.push(...assistantItems(message, index, options.store, warnings));
        break;
      case "tool":
        for (const [i, result] of message.toolCallResults.entries()) {
          const output = result.parts === undefined ? result.result : result.parts.map((part) => contentPart(part, `messages[${index}].toolCallResults[${i}]`, warnings));
          input.push({ type: "function_call_output", call_id: requireCallId(result.origin, `messages[${index}] is the result of a call`, api), output });
        }
        break;
    }
  }
  return input;
}

const generator = "OpenAIResponsesChatGenerator";

type ContentPart = OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage | OpenAI.Responses.ResponseInputFile;

// A user message: its text, or (with images or files) its parts in order.
function userContent(message: ChatMessage, where: string, warnings: MediaWarnings): string | ContentPart[] {
  if (!message.content.some((part) => part.type === "image" || part.type === "file")) return message.text ?? "";
  return message.content.flatMap((part) => (part.type === "text" || part.type === "image" || part.type === "file" ? [contentPart(part, where, warnings)] : []));
}

/**
 * A text, image or file part as the Responses API takes it in a message or a `function_call_output`:
 * `input_text`, `input_image` (a data or http(s) URL, `detail` "auto" unless given), `input_file`
 * (`file_data` as a data URL with its name, or `file_url`); a part it cannot take as its description.
 */
function contentPart(part: ToolResultPart, where: string, warnings: MediaWarnings): ContentPart {
  if (part.type === "text") return { type: "input_text", text: part.text };
  if (part.type === "image") {
    const refusal = openaiImageRefusal(part.image);
    if (refusal !== undefined) return { type: "input_text", text: warnings.describe(part.image, where, refusal) };
    return { type: "input_image", image_url: part.image.toDataUrl(), detail: part.image.detail ?? "auto" };
  }
  const file = part.file;
  if (file.url !== undefined) return { type: "input_file", file_url: file.url };
  if (file.mimeType === undefined) return { type: "input_text", text: warnings.describe(file, where, "the Responses API needs a file's type; give FileContent a mimeType") };
  return { type: "input_file", file_data: file.toDataUrl(), filename: openaiFilename(file) };
}

// A message's text parts with its images and files described in their place, one per line; the first text alone when it has none.
function describedText(message: ChatMessage, where: string, warnings: MediaWarnings, reason: string): string {
  if (!message.content.some((part) => part.type === "image" || part.type === "file")) return message.text ?? "";
  const lines: string[] = [];
  for (const part of message.content) {
    if (part.type === "text") lines.push(part.text);
    else if (part.type === "image" || part.type === "file") lines.push(warnings.describe(part.type === "image" ? part.image : part.file, where, reason));
  }
  return lines.join("\n");
}

function assistantItems(message: ChatMessage, index: number, store: boolean, warnings: MediaWarnings): InputItem[] {
  const items: InputItem[] = [];
  let calls = 0;
  let hasText = false;
  let described = false;
  for (const part of message.content) {
    if (part.type === "reasoning") {
      const item = reasoningInputItem(part.reasoning.extra);
      if (item && (store || item.encrypted_content)) items.push(item);
    } else if (part.type === "text" && !hasText) {
      // The first text part, as in the Chat Completions conversion.
      hasText = true;
      items.push({ type: "message", role: "assistant", content: part.text });
    } else if (part.type === "image" || part.type === "file") {
      // Described in a message of its own, in its place: the API takes no media from the assistant.
      described = true;
      items.push({ type: "message", role: "assistant", content: warnings.describe(part.type === "image" ? part.image : part.file, `messages[${index}]`, "the Responses API takes no images or files in assistant messages") });
    } else if (part.type === "toolCall") {
      const call = part.toolCall;
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      items.push({ type: "function_call", call_id: requireCallId(call, `messages[${index}].toolCalls[${calls++}] is a call`, api), name: call.toolName, arguments: args });
    }
  }
  // The API refuses a reasoning item that is not followed by a message or a call (the item the
  // model produced after it): one followed by another reasoning item, or by nothing, is left out.
  const kept = items.filter((item, i) => item.type !== "reasoning" || (items[i + 1] !== undefined && items[i + 1]!.type !== "reasoning"));
  if (!hasText && !described && calls === 0) kept.push({ type: "message", role: "assistant", content: "" });
  return kept;
}

const reasoningItemSchema = z.object({
  type: z.literal("reasoning"),
  id: z.string().min(1),
  summary: z.array(z.object({ type: z.literal("summary_text"), text: z.string() })),
  encrypted_content: z.string().nullish(),
  content: z.array(z.object({ type: z.literal("reasoning_text"), text: z.string() })).optional(),
});

/**
 * The Responses API reasoning item a reasoning part's `extra` holds, with only the fields the API
 * takes; `undefined` when `extra` is not one (another provider's reasoning, or a snapshot whose
 * reasoning was changed), so that it is left out of the request instead of failing it.
 */
export function reasoningInputItem(extra: unknown): OpenAI.Responses.ResponseReasoningItem | undefined {
  const parsed = reasoningItemSchema.safeParse(extra);
  return parsed.success ? parsed.data : undefined;
}

/** Converts tool specs to function tools; `strict` is always sent, as the API makes a tool strict when it is left out. */
export function toResponsesTools(tools: readonly ToolSpec[], strict: boolean): OpenAI.Responses.FunctionTool[] {
  return tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, ...toolParameters(tool, strict) }));
}

/**
 * The `text` option of a request: with the run's answer shape, `generationKwargs.text` (its
 * `verbosity`, say) with its `format` replaced by the shape; without one, `generationKwargs.text`.
 */
export function toTextConfig(kwargsText: unknown, format: ResponseFormat | undefined): unknown {
  if (!format) return kwargsText;
  return { ...(isPlainObject(kwargsText) ? kwargsText : {}), format: { type: "json_schema", ...jsonSchemaFormat(format) } };
}
