import { Ticket, type TicketStore } from "./ticketStore";
// #region tools
import { z } from "zod";
import { tool, type Integer, type State, type StateSchema } from "toolwright";

export const supportState = {
  customer_id: { type: z.string() },                 // set by your service, never by the model
  tickets: { type: z.array(Ticket) },                // lists append by default (mergeLists)
} satisfies StateSchema;

export class SupportTools {
  constructor(private readonly store: TicketStore) {}

  /**
   * Search the customer's support tickets.
   * @param query Words to look for.
   * @param limit Maximum number of tickets to return.
   */
  @tool({ inputsFromState: { customer_id: "customerId" }, outputsToState: { tickets: { source: "tickets" } } })
  async searchTickets(query: string, customerId: string, limit: Integer = 5): Promise<{ tickets: Ticket[] }> {
    return { tickets: await this.store.search(customerId, query, limit) };
  }

  /** Close a ticket. */
  @tool({ name: "close_ticket" })
  closeTicket(ticketId: string, state: State<typeof supportState>): Ticket {
    return this.store.close(state.get("customer_id") ?? "", ticketId);
  }
}
// #endregion
