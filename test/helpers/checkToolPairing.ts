import type { ChatMessage } from "toolwright";

/**
 * The tool-pairing rules OpenAI (Chat Completions) and Anthropic (Messages) enforce on a request's
 * messages, as a list of the problems found (empty: both accept the pairing): every tool call has an
 * id; every tool message answers a call of the nearest assistant message before it, once; every
 * call of an assistant message is answered before the next user or assistant message (and before
 * the request ends); the conversation (after the system messages) does not start with a tool
 * message. OpenAI: "messages with role 'tool' must be a response to a preceding message with
 * 'tool_calls'" and "an assistant message with 'tool_calls' must be followed by tool messages
 * responding to each 'tool_call_id'"; Anthropic: "each tool_result block must have a corresponding
 * tool_use block in the previous message" and tool_use ids must be answered in the next message.
 */
export function checkToolPairing(messages: readonly ChatMessage[]): string[] {
  const problems: string[] = [];
  let pending = new Set<string>();
  let answered = new Set<string>();
  let openedAt = -1;
  let seenNonSystem = false;
  const closeTurn = (at: number) => {
    if (pending.size > 0) problems.push(`message ${openedAt}: tool call${pending.size === 1 ? "" : "s"} ${[...pending].join(", ")} not answered before message ${at}`);
    pending = new Set();
    answered = new Set();
  };
  messages.forEach((message, i) => {
    if (message.role === "system") return;
    if (!seenNonSystem && message.role === "tool") problems.push(`message ${i}: the conversation starts with a tool message`);
    seenNonSystem = true;
    if (message.role === "tool") {
      for (const result of message.toolCallResults) {
        const id = result.origin.id;
        if (id === undefined) problems.push(`message ${i}: a tool result without a call id`);
        else if (answered.has(id)) problems.push(`message ${i}: tool call ${id} answered twice`);
        else if (!pending.has(id)) problems.push(`message ${i}: tool result for ${id} follows no assistant call with that id`);
        else {
          pending.delete(id);
          answered.add(id);
        }
      }
      return;
    }
    closeTurn(i);
    if (message.role === "assistant") {
      openedAt = i;
      for (const call of message.toolCalls) {
        if (call.id === undefined) problems.push(`message ${i}: tool call ${call.toolName} has no id`);
        else if (pending.has(call.id)) problems.push(`message ${i}: tool call id ${call.id} used twice`);
        else pending.add(call.id);
      }
    }
  });
  closeTurn(messages.length);
  return problems;
}
