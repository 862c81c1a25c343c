import { z } from "zod";

/** A ticket of the tools guide's examples. */
export interface Ticket {
  id: string;
  status: "open" | "closed";
}

/** The state the guide's SupportTools reads: the customer, set by the service. */
export const supportState = { customer_id: { type: z.string() } };
export type SupportState = typeof supportState;

/** Tickets by customer, in memory; `close` answers the ticket as closed, or throws for another customer's ticket. */
export const tickets = {
  close(customerId: string, ticketId: string): Ticket {
    if (customerId !== "c-42") throw new Error(`customer ${customerId} has no ticket ${ticketId}`);
    return { id: ticketId, status: "closed" };
  },
};

/** The same store, async and cancellable, as a `Tool`'s function uses it. */
export const store = {
  async close(customerId: string, ticketId: string, options: { signal: AbortSignal }): Promise<Ticket> {
    options.signal.throwIfAborted();
    return tickets.close(customerId, ticketId);
  },
};
