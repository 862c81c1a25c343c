import type { ChatMessage, ToolResultPart } from "../chat/chatMessage";
import { describeMedia } from "../media/describeMedia";

// A tool result in a transcript to summarize is cut to this many characters: the summary needs its gist, not all of it.
const maxResultChars = 1_000;

/**
 * Messages as plain text for a summarizing model: one paragraph per message (`user: …`,
 * `assistant called search({"q":"x"}) #call_1`, `tool result #call_1: …`), so that the summarizer's
 * request has no tool messages to pair. Images and files are described, never sent:
 * `user: [image image/png, 48213 bytes, sha256 ab12cd34ef56…]`.
 */
export function transcriptText(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === "text") lines.push(`${message.role}: ${part.text}`);
      else if (part.type === "image" || part.type === "file") lines.push(`${message.role}: ${describeMedia(part.type === "image" ? part.image : part.file)}`);
      else if (part.type === "toolCall") {
        const args = typeof part.toolCall.arguments === "string" ? part.toolCall.arguments : JSON.stringify(part.toolCall.arguments);
        lines.push(`assistant called ${part.toolCall.toolName}(${args})${part.toolCall.id === undefined ? "" : ` #${part.toolCall.id}`}`);
      } else if (part.type === "toolCallResult") {
        const { origin, error, parts } = part.toolCallResult;
        const result = parts ? parts.map(partText).join("\n") : part.toolCallResult.result;
        const cut = result.length > maxResultChars ? `${result.slice(0, maxResultChars)}… [${result.length - maxResultChars} more chars]` : result;
        lines.push(`${error ? "tool error" : "tool result"}${origin.id === undefined ? "" : ` #${origin.id}`} (${origin.toolName}): ${cut}`);
      }
    }
  }
  return lines.join("\n\n");
}

function partText(part: ToolResultPart): string {
  return part.type === "text" ? part.text : describeMedia(part.type === "image" ? part.image : part.file);
}
