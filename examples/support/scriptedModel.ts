import { ChatMessage } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/**
 * Stands in for a real model when no OPENAI_API_KEY / OPENAI_BASE_URL is set: it answers the
 * example's question the way a model would, one step at a time, using what the tools returned.
 */
export function scriptedSupportModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, {
      toolCalls: [{ id: "call_search", toolName: "search_tickets", arguments: { query: "open" } }],
    }),
    (request) => {
      const found = JSON.parse(request.messages.at(-1)?.toolCallResult?.result ?? "{}") as { tickets?: Array<{ id: string; subject: string }> };
      const printer = found.tickets?.find((t) => /printer/i.test(t.subject));
      return ChatMessage.fromAssistant(undefined, {
        toolCalls: [{ id: "call_close", toolName: "close_ticket", arguments: { ticketId: printer?.id ?? "T-1" } }],
      });
    },
    (request) => {
      const closed = request.messages.at(-1)?.toolCallResult;
      const ticket = closed && !closed.error ? (JSON.parse(closed.result) as { id: string; subject: string }) : undefined;
      return ChatMessage.fromAssistant(
        ticket ? `You had two open tickets. I closed ${ticket.id} ("${ticket.subject}"); the invoice ticket stays open.` : "I could not close the ticket.",
      );
    },
  ]);
}
