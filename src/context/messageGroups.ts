import type { ChatMessage } from "../chat/chatMessage";

/**
 * Splits non-system messages into the units compaction keeps or drops whole: an assistant message
 * with tool calls together with the tool messages after it (OpenAI and Anthropic reject a call
 * without its results and a result without its call), and every other message alone. Tool
 * messages that follow no assistant tool call are orphans no provider accepts: they are left out.
 * Walks from the newest message back and stops once `enough` says so, so that taking the newest
 * few costs only those.
 */
export function newestGroups(messages: readonly ChatMessage[], enough: (group: readonly ChatMessage[]) => boolean): ChatMessage[][] {
  const groups: ChatMessage[][] = [];
  let tools: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "system") continue;
    if (message.role === "tool") {
      tools.unshift(message);
      continue;
    }
    const group = message.role === "assistant" && message.toolCalls.length > 0 ? [message, ...tools] : [message];
    tools = [];
    if (enough(group)) break;
    groups.unshift(group);
  }
  return groups;
}
