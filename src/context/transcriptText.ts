import type { ChatMessage } from "../chat/chatMessage";

// A tool result in a transcript to summarize is cut to this many characters: the summary needs its gist, not all of it.
const maxResultChars = 1_000;

/**
 * Messages as plain text for a summarizing model: one paragraph per message (`user: …`,
 * `assistant called search({"q":"x"}) #call_1`, `tool result #call_1: …`), so that the summarizer's
 * request has no tool messages to pair.
 */
export function transcriptText(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === "text") lines.push(`${message.role}: ${part.text}`);
      else if (part.type === "toolCall") {
        const args = typeof part.toolCall.arguments === "string" ? part.toolCall.arguments : JSON.stringify(part.toolCall.arguments);
        lines.push(`assistant called ${part.toolCall.toolName}(${args})${part.toolCall.id === undefined ? "" : ` #${part.toolCall.id}`}`);
      } else if (part.type === "toolCallResult") {
        const { result, origin, error } = part.toolCallResult;
        const cut = result.length > maxResultChars ? `${result.slice(0, maxResultChars)}… [${result.length - maxResultChars} more chars]` : result;
        lines.push(`${error ? "tool error" : "tool result"}${origin.id === undefined ? "" : ` #${origin.id}`} (${origin.toolName}): ${cut}`);
      }
    }
  }
  return lines.join("\n\n");
}
