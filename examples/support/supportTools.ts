import { z } from "zod";
import { type Integer, replaceValues, type State, type StateSchema, tool } from "toolwright";
import { Ticket, type TicketStore } from "./ticketStore";

/** The support agent's state: the customer (set by the service, never by the model), tickets found, tickets closed. */
export const supportState = {
  customer_id: { type: z.string() },
  tickets: { type: z.array(Ticket) },
  closed: { type: z.array(z.string()) },
} satisfies StateSchema;

export type SupportState = typeof supportState;

/** The support desk's tools: plain methods; `toolwright codegen` turns their signatures into schemas. */
export class SupportTools {
  constructor(private readonly store: TicketStore) {}

  /**
   * Search the customer's support tickets.
   * @param query Words to look for; "open" or "closed" match the status.
   * @param customerId Filled from state; the model never sees it.
   * @param limit Maximum number of tickets to return.
   * @title Search tickets
   * @readOnlyHint
   * @openWorldHint false
   */
  @tool({
    name: "search_tickets",
    inputsFromState: { customer_id: "customerId" },
    outputsToState: { tickets: { source: "tickets" } },
  })
  searchTickets(query: string, customerId: string, limit: Integer = 5): { tickets: Ticket[] } {
    return { tickets: this.store.search(customerId, query, limit) };
  }

  /**
   * Close one of the customer's tickets.
   * @param ticketId The ticket to close, e.g. T-1.
   * @title Close a ticket
   * @destructiveHint false
   * @idempotentHint
   * @openWorldHint false
   */
  @tool({ name: "close_ticket", outputsToState: { closed: { source: "id" } } })
  closeTicket(ticketId: string, state: State<SupportState>): Ticket {
    const customerId = state.get("customer_id");
    if (customerId === undefined) throw new Error("no customer is set for this conversation");
    const closed = this.store.close(customerId, ticketId);
    // The tickets found earlier stay in state: show this one closed there too (replacing the list for this write).
    const found = state.get("tickets") ?? [];
    state.set("tickets", found.map((ticket) => (ticket.id === closed.id ? closed : ticket)), replaceValues);
    return closed;
  }
}
