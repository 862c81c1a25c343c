import type { ChatMessage, ToolCall } from "../chat/chatMessage";
import type { PendingConfirmation } from "../hitl/confirmationTypes";

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

/** Escapes one segment of a nested call key as a JSON Pointer does: `~` becomes `~0`, `/` becomes `~1`. */
export function escapeKeySegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The key a calling run decides a paused sub-run's call by: the agent tool call's key and the
 * sub-run's key, each escaped, joined with `/`. A sub-run's own nested key (it has `agent`) is
 * already escaped, so it is kept whole; escaping every segment once makes two different paths of
 * ids two different keys, whatever characters a model or provider puts in its ids.
 */
export function nestedCallKey(callKey: string, pending: PendingConfirmation): string {
  return `${escapeKeySegment(callKey)}/${pending.agent === undefined ? escapeKeySegment(pending.toolCallId) : pending.toolCallId}`;
}
