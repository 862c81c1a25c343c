import { z } from "zod";
import { Tool, tool, type ToolContext } from "toolwright";

/** The support desk's data: tickets by customer. */
export class SupportStore {
  readonly tickets = new Map([["c-42", ["T-1 printer jam (open)", "T-2 scanner (closed)"]]]);
  /** Each call's context.idempotencyKey, in call order. */
  readonly idempotencyKeys: string[] = [];
}

/** The agent-and-hooks guide's ticket search as a class: what ToolRunner and the middleware examples run. */
export class SupportTools {
  constructor(private readonly store: SupportStore) {}

  /**
   * Search the customer's tickets.
   * @param query Words to look for.
   * @param customerId The customer, filled from state.
   */
  @tool({ name: "search_tickets", inputsFromState: { customer_id: "customerId" } })
  searchTickets(query: string, customerId: string): string {
    return (this.store.tickets.get(customerId) ?? []).filter((ticket) => ticket.includes(query)).join("; ") || "No tickets.";
  }
}

/** The same two operations as Tool objects, the way the guide's first block lists `tools`. */
export function supportToolObjects(store: SupportStore): { searchTickets: Tool; closeTicket: Tool } {
  const searchTickets = new Tool({
    name: "search_tickets",
    description: "Search the customer's tickets.",
    parameters: z.object({ query: z.string(), customerId: z.string() }),
    inputsFromState: { customer_id: "customerId" },
    function: ({ query, customerId }: { query: string; customerId: string }, context: ToolContext) => {
      store.idempotencyKeys.push(context.idempotencyKey);
      return (store.tickets.get(customerId) ?? []).filter((ticket) => ticket.includes(query)).join("; ") || "No tickets.";
    },
  });
  const closeTicket = new Tool({
    name: "close_ticket",
    description: "Close a ticket.",
    parameters: z.object({ ticketId: z.string() }),
    function: ({ ticketId }: { ticketId: string }) => `Closed ${ticketId}.`,
  });
  return { searchTickets, closeTicket };
}
