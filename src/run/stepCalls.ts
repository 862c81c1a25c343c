import type { ChatMessage, ToolCall } from "../chat/chatMessage";

const positionalKey = /^#\d+$/;

/** The tool calls of a step: those of its trailing `replies` messages, in order. */
export function stepCalls(messages: readonly ChatMessage[], replies: number): ToolCall[] {
  const calls: ToolCall[] = [];
  for (let i = messages.length - replies; i < messages.length; i++) for (const part of messages[i]!.content) if (part.type === "toolCall") calls.push(part.toolCall);
  return calls;
}

/**
 * The key of each call of a step in decisions, pending confirmations and snapshots: the call's id
 * when no other call of the step has it and it does not look like a positional key, else
 * `#<position>`. Keys are unique within a step, so a decision applies to exactly one call.
 */
export function callKeys(calls: readonly ToolCall[]): string[] {
  if (calls.length === 1) {
    const id = calls[0]!.id;
    return [id && !positionalKey.test(id) ? id : "#0"];
  }
  const counts = new Map<string, number>();
  for (const call of calls) if (call.id) counts.set(call.id, (counts.get(call.id) ?? 0) + 1);
  return calls.map((call, i) => (call.id && counts.get(call.id) === 1 && !positionalKey.test(call.id) ? call.id : `#${i}`));
}
