import { ChatMessage, type ChatGeneratorRequest } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";

/**
 * The support desk's stand-in model: it reads the conversation (not a position in a script) and
 * does what the request asks: look the tickets up, close the printer one, escalate the invoice one.
 */
export function scriptedDeskModel(): ScriptedChatGenerator {
  const answer = (request: ChatGeneratorRequest): ChatMessage => {
    const done = new Set(request.messages.flatMap((message) => (message.toolCallResult ? [message.toolCallResult.origin.toolName] : [])));
    // Call ids come from the conversation too, so two runs of the same conversation match exactly.
    const call = (toolName: string, args: Record<string, unknown>) => ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `call_${done.size + 1}`, toolName, arguments: args }] });
    if (!done.has("search_tickets")) return call("search_tickets", { query: "open" });
    if (!done.has("close_ticket")) return call("close_ticket", { ticketId: "T-1" });
    return call("escalate", { ticketId: "T-2", reason: "The invoice address must be corrected in billing, which the desk cannot change." });
  };
  return new ScriptedChatGenerator(Array.from({ length: 8 }, () => answer));
}
