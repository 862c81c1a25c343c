import type { StreamingChunk } from "../chat/streaming";
import type { AgentStreamEvent } from "./agentStream";

/** A stream event as a service sends it to its client: the chunks, and the result as `select` chose it. */
export type ClientEvent<T> = StreamingChunk | { readonly type: "result"; readonly result: T };

/**
 * Prepares an `agent.stream` event for a client: chunks (text, tool-call deltas, tool results,
 * finish) pass as they are — they hold only what the model sent and saw — and the run's result
 * passes only as `select` picks it. The result holds the whole state and every message, including
 * what the service set and the model never saw (a customer id, the system prompt), so nothing of
 * it leaves the server unless chosen.
 *
 * @example
 * for await (const event of agent.stream({ messages, customer_id })) {
 *   const data = clientEvent(event, (result) => ({ answer: result.lastMessage.text, exitReason: result.exitReason }));
 *   res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
 * }
 */
export function clientEvent<R, T>(event: AgentStreamEvent<R>, select: (result: R) => T): ClientEvent<T> {
  return event.type === "result" ? { type: "result", result: select(event.result) } : event;
}
