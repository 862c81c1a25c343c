import { type Integer, tool } from "toolwright";
import type { Ticket, TicketStore } from "../support/ticketStore";

/**
 * The support desk's tools. Which state keys they read and write is not decided here but in
 * agent.yaml, which can change without a build; what must never reach the model is decided here:
 * `searchTickets` hides `customerId` in code, so no definition can show it to the model.
 */
export class DeskTools {
  constructor(private readonly store: TicketStore) {}

  /**
   * Search the customer's support tickets.
   * @param query Words to look for; "open" or "closed" match the status.
   * @param customerId The customer whose tickets are searched.
   * @param limit Maximum number of tickets to return.
   */
  @tool({ name: "search_tickets", inputsFromState: { customer_id: "customerId" } })
  searchTickets(query: string, customerId: string, limit: Integer = 5): { tickets: Ticket[] } {
    return { tickets: this.store.search(customerId, query, limit) };
  }

  /**
   * Close one of the customer's tickets.
   * @param ticketId The ticket to close, e.g. T-1.
   * @param customerId The customer the ticket belongs to.
   */
  @tool({ name: "close_ticket" })
  closeTicket(ticketId: string, customerId: string): { ticket: Ticket } {
    return { ticket: this.store.close(customerId, ticketId) };
  }

  /**
   * Hand a ticket to a person on the second-level team; ends the conversation.
   * @param ticketId The ticket to hand over.
   * @param reason Why a person must look at it, in one sentence.
   */
  @tool({ name: "escalate" })
  escalate(ticketId: string, reason: string): { ticketId: string; reason: string; queue: string } {
    return { ticketId, reason, queue: "second-level" };
  }
}

/**
 * The merge handler agent.yaml names for the `tickets` list: a ticket written again (closed, say)
 * replaces its earlier copy instead of appearing twice; new tickets are appended.
 */
export function latestTickets(current: Ticket[] | undefined, incoming: Ticket[] | Ticket): Ticket[] {
  const byId = new Map((current ?? []).map((ticket) => [ticket.id, ticket]));
  for (const ticket of Array.isArray(incoming) ? incoming : [incoming]) byId.set(ticket.id, ticket);
  return [...byId.values()];
}
