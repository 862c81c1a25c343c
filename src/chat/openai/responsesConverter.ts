import type OpenAI from "openai";
import { z } from "zod";
import { isPlainObject } from "../../util/isPlainObject";
import type { ResponseFormat, ToolSpec } from "../chatGenerator";
import type { ChatMessage } from "../chatMessage";
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
export function toResponsesInput(messages: readonly ChatMessage[], options: { readonly store: boolean }): InputItem[] {
  const input: InputItem[] = [];
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case "system":
      case "user":
        input.push({ type: "message", role: message.role, content: message.text ?? "" });
        break;
      case "assistant":
        input.push(...assistantItems(message, index, options.store));
        break;
      case "tool":
        for (const result of message.toolCallResults) {
          input.push({ type: "function_call_output", call_id: requireCallId(result.origin, `messages[${index}] is the result of a call`, api), output: result.result });
        }
        break;
    }
  }
  return input;
}

function assistantItems(message: ChatMessage, index: number, store: boolean): InputItem[] {
  const items: InputItem[] = [];
  let calls = 0;
  let hasText = false;
  for (const part of message.content) {
    if (part.type === "reasoning") {
      const item = reasoningInputItem(part.reasoning.extra);
      if (item && (store || item.encrypted_content)) items.push(item);
    } else if (part.type === "text" && !hasText) {
      // The first text part, as in the Chat Completions conversion.
      hasText = true;
      items.push({ type: "message", role: "assistant", content: part.text });
    } else if (part.type === "toolCall") {
      const call = part.toolCall;
      const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
      items.push({ type: "function_call", call_id: requireCallId(call, `messages[${index}].toolCalls[${calls++}] is a call`, api), name: call.toolName, arguments: args });
    }
  }
  // The API refuses a reasoning item that is not followed by a message or a call (the item the
  // model produced after it): one followed by another reasoning item, or by nothing, is left out.
  const kept = items.filter((item, i) => item.type !== "reasoning" || (items[i + 1] !== undefined && items[i + 1]!.type !== "reasoning"));
  if (!hasText && calls === 0) kept.push({ type: "message", role: "assistant", content: "" });
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
