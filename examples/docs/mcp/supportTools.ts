import { z } from "zod";
import { tool, type StateSchema } from "toolwright";

/** The state the served tools read: the customer, from the session, never from the client's arguments. */
export const supportState = { customer_id: { type: z.string() } } satisfies StateSchema;

/** Tickets by customer, in memory. */
export interface TicketStore {
  search(customerId: string, query: string): string[];
}

/** A support desk's tools, served over MCP and used beside an MCP server's tools. */
export class SupportTools {
  constructor(private readonly store: TicketStore) {}

  /**
   * Search the customer's tickets.
   * @param query Words to look for.
   * @readOnlyHint
   */
  @tool({ name: "search_tickets", inputsFromState: { customer_id: "customerId" } })
  searchTickets(query: string, customerId: string): string[] {
    return this.store.search(customerId, query);
  }
}
