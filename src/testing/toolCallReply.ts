import { ChatMessage, type ToolCall } from "../chat/chatMessage";

let nextId = 0;

/**
 * An assistant reply that calls tools, for scripts: `toolCallReply(["search", { query: "x" }])`.
 * Each call is `[toolName, arguments, id?]`; missing ids are generated (`call_1`, `call_2`, …).
 */
export function toolCallReply(...calls: Array<[toolName: string, args: Record<string, unknown> | string, id?: string]>): ChatMessage {
  const toolCalls: ToolCall[] = calls.map(([toolName, args, id]) => ({ id: id ?? `call_${++nextId}`, toolName, arguments: args }));
  return ChatMessage.fromAssistant(undefined, { toolCalls });
}
