import { isPlainObject } from "../util/isPlainObject";

// The forms of a serialized ChatMessage that Haystack still reads, turned into the current one
// ({ role, meta, name, content: [{ text } | { tool_call } | …] }) before ChatMessage.fromJSON
// checks it. Haystack's ChatMessage.from_dict reads:
//   - before 2.9, `content` as a string;
//   - from 2.9 to 2.12, `_role`, `_content`, `_name`, `_meta`;
//   - content parts without their wrapping key (pydantic's model_dump of a part):
//     { tool_name, arguments } for a call, { result, origin, error } for a result,
//     { reasoning_text } for reasoning, { base64_image } for an image, { base64_data } for a file.
// Anything else passes through unchanged, for fromJSON's checks to refuse with their own messages.

const wrappedKeys = ["text", "image", "file", "reasoning", "tool_call", "tool_call_result"];

/** `json` in the current serialized form when it is one of the older forms Haystack reads; otherwise `json` itself. */
export function currentMessageForm(json: unknown): unknown {
  if (!isPlainObject(json)) return json;
  let message: Record<string, unknown> = json;
  if (!("role" in message) && "_role" in message) {
    message = { role: message._role, meta: message._meta ?? undefined, name: message._name, content: message._content };
  }
  // Haystack reads `meta: null` as no meta (`data.get("meta") or {}`).
  if (message.meta === null) message = { ...message, meta: undefined };
  const content = message.content;
  if (typeof content === "string") return { ...message, content: [{ text: content }] };
  if (Array.isArray(content) && content.some(isFlatPart)) return { ...message, content: content.map(wrappedPart) };
  return message;
}

function isFlatPart(part: unknown): boolean {
  if (!isPlainObject(part)) return false;
  if (wrappedKeys.some((key) => key in part)) {
    const result = isPlainObject(part.tool_call_result) ? part.tool_call_result.result : undefined;
    return Array.isArray(result) && result.some(isFlatPart);
  }
  return flatKey(part) !== undefined;
}

function flatKey(part: Record<string, unknown>): string | undefined {
  if ("tool_name" in part && "arguments" in part) return "tool_call";
  if ("result" in part && "origin" in part) return "tool_call_result";
  if ("reasoning_text" in part) return "reasoning";
  if ("base64_image" in part) return "image";
  if ("base64_data" in part) return "file";
  return undefined;
}

function wrappedPart(part: unknown): unknown {
  if (!isPlainObject(part)) return part;
  if (wrappedKeys.some((key) => key in part)) {
    const inner = part.tool_call_result;
    if (!isPlainObject(inner) || !Array.isArray(inner.result)) return part;
    return { ...part, tool_call_result: { ...inner, result: inner.result.map(wrappedPart) } };
  }
  const key = flatKey(part);
  if (key === undefined) return part;
  if (key === "tool_call_result" && Array.isArray(part.result)) return { tool_call_result: { ...part, result: part.result.map(wrappedPart) } };
  return { [key]: part };
}
