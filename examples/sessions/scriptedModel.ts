import { ChatMessage, type ChatGeneratorRequest } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

// What search_tickets returned earlier in the thread: the scripted model reads it back from the
// history, the way a real model reads the conversation it is sent.
function ticketsSeen(request: ChatGeneratorRequest): Array<{ id: string; subject: string; status: string }> {
  for (const message of request.messages) {
    const result = message.toolCallResult;
    if (result?.origin.toolName === "search_tickets" && !result.error) return (JSON.parse(result.result) as { tickets: Array<{ id: string; subject: string; status: string }> }).tickets;
  }
  return [];
}

/** Turn 1 (first process): searches the customer's open tickets and lists them. */
export function firstTurnModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_search", toolName: "search_tickets", arguments: { query: "open" } }] }),
    (request) => {
      const open = ticketsSeen(request);
      return ChatMessage.fromAssistant(`You have ${open.length} open tickets: ${open.map((t) => `${t.id} ("${t.subject}")`).join(" and ")}.`);
    },
  ]);
}

/** Turn 2 (second process): "close the printer one" only makes sense with turn 1 in the history. */
export function secondTurnModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    (request) => {
      const printer = ticketsSeen(request).find((t) => /printer/i.test(t.subject));
      if (!printer) return ChatMessage.fromAssistant("Which ticket do you mean? I have not looked up your tickets in this conversation.");
      return ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "call_close", toolName: "close_ticket", arguments: { ticketId: printer.id } }] });
    },
    (request) => {
      const closed = request.messages.at(-1)?.toolCallResult;
      const ticket = closed && !closed.error ? (JSON.parse(closed.result) as { id: string; subject: string }) : undefined;
      return ChatMessage.fromAssistant(ticket ? `Done: I closed ${ticket.id} ("${ticket.subject}"). The other ticket stays open.` : "I could not close the ticket.");
    },
  ]);
}
