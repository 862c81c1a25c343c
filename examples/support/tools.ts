import { z } from "zod";
import { Tool, type StateSchema } from "toolwright";
import { Ticket, type TicketStore } from "./ticketStore";

/** The support agent's state: the customer (set by the service, never by the model) and tickets found. */
export const supportState = {
  customer_id: { type: z.string() },
  tickets: { type: z.array(Ticket) },
  closed: { type: z.array(z.string()) },
} satisfies StateSchema;

/** The support desk's tools. The customer id comes from state; the model never sees or sets it. */
export function supportTools(store: TicketStore): Tool[] {
  const searchTickets = new Tool({
    name: "search_tickets",
    description: "Search the customer's support tickets.",
    parameters: z.object({
      query: z.string().describe("Words to look for; 'open' or 'closed' match the status."),
      limit: z.number().int().min(1).max(20).default(5).describe("Maximum number of tickets to return."),
      customerId: z.string(),
    }),
    inputsFromState: { customer_id: "customerId" },
    outputsToState: { tickets: { source: "tickets" } },
    function: ({ query, limit, customerId }) => ({ tickets: store.search(customerId, query, limit) }),
  });

  const closeTicket = new Tool({
    name: "close_ticket",
    description: "Close one of the customer's tickets.",
    parameters: {
      type: "object",
      properties: {
        ticketId: { type: "string", description: "The ticket to close, e.g. T-1." },
        customerId: { type: "string" },
      },
      required: ["ticketId", "customerId"],
    },
    inputsFromState: { customer_id: "customerId" },
    outputsToState: { closed: { source: "id" } },
    function: (args) => store.close(args.customerId as string, args.ticketId as string),
  });

  return [searchTickets, closeTicket];
}
