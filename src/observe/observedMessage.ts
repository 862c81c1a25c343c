import type { ChatMessage, ChatMessageJSON, ToolCallJSON } from "../chat/chatMessage";
import type { FileContent } from "../media/fileContent";
import type { ImageContent } from "../media/imageContent";
import type { MediaDescriptor } from "../media/mediaDescriptor";

/** A text, image or file part of a tool result, as events show it: media as descriptors. */
export type ObservedResultPartJSON = { text: string } | { image: MediaDescriptor } | { file: MediaDescriptor };

/**
 * A message as hooks and tracers see it: its JSON form (Haystack's dict shape), except that every
 * image and file, a tool result's included, is its `MediaDescriptor` (type, MIME type, bytes,
 * SHA-256 or URL) instead of its data. Events never carry the bytes.
 */
export interface ObservedMessageJSON {
  role: ChatMessageJSON["role"];
  meta: Record<string, unknown>;
  name: string | null;
  content: Array<
    | { reasoning: { reasoning_text: string; extra: Record<string, unknown> } }
    | { text: string }
    | { image: MediaDescriptor }
    | { file: MediaDescriptor }
    | { tool_call: ToolCallJSON }
    | { tool_call_result: { result: string | ObservedResultPartJSON[]; origin: ToolCallJSON; error: boolean } }
  >;
}

/**
 * The message's JSON form with descriptors in place of media. The data never enters the result, so
 * the redaction that walks it (and a trace exporter) never scans or writes megabytes of base64.
 */
export function observedMessageJSON(message: ChatMessage): ObservedMessageJSON {
  if (!hasMedia(message)) return message.toJSON() as ObservedMessageJSON;
  // Only the media parts differ: the others come from toJSON (whose media parts are dropped unread).
  const json = message.toJSON();
  const content = message.content.map((part, i): ObservedMessageJSON["content"][number] => {
    if (part.type === "image") return { image: descriptorJSON(part.image) };
    if (part.type === "file") return { file: descriptorJSON(part.file) };
    if (part.type === "toolCallResult" && part.toolCallResult.parts) {
      const own = json.content[i] as { tool_call_result: { origin: ToolCallJSON; error: boolean } };
      const result = part.toolCallResult.parts.map((p): ObservedResultPartJSON => (p.type === "text" ? { text: p.text } : p.type === "image" ? { image: descriptorJSON(p.image) } : { file: descriptorJSON(p.file) }));
      return { tool_call_result: { result, origin: own.tool_call_result.origin, error: own.tool_call_result.error } };
    }
    return json.content[i] as ObservedMessageJSON["content"][number];
  });
  return { role: json.role, meta: json.meta, name: json.name, content };
}

/** The descriptors of a tool message's images and files, in order (empty for a text result). */
export function resultMedia(message: ChatMessage | undefined): readonly MediaDescriptor[] {
  const parts = message?.toolCallResult?.parts;
  if (!parts) return noMedia;
  const found: MediaDescriptor[] = [];
  for (const part of parts) if (part.type !== "text") found.push(descriptorJSON(part.type === "image" ? part.image : part.file));
  return found.length === 0 ? noMedia : Object.freeze(found);
}

const noMedia: readonly MediaDescriptor[] = Object.freeze([]);

function hasMedia(message: ChatMessage): boolean {
  return message.content.some((part) => part.type === "image" || part.type === "file" || (part.type === "toolCallResult" && part.toolCallResult.parts !== undefined));
}

// Events are redacted through JSON, which drops the descriptor's undefined fields.
function descriptorJSON(media: ImageContent | FileContent): MediaDescriptor {
  return media.describe();
}
