import { z } from "zod";

/** A support ticket of the README's quickstart. */
export const Ticket = z.object({ id: z.string(), subject: z.string(), status: z.enum(["open", "closed"]) });
export type Ticket = z.infer<typeof Ticket>;

/** Where the quickstart's tools find tickets: by customer, so one customer never sees another's. */
export interface TicketStore {
  search(customerId: string, query: string, limit: number): Promise<Ticket[]>;
  close(customerId: string, ticketId: string): Ticket;
}

/** A store in memory, with two customers' tickets. */
export function memoryTicketStore(): TicketStore {
  const tickets = new Map<string, Ticket[]>([
    ["c-42", [{ id: "T-1", subject: "Printer jam", status: "open" }, { id: "T-2", subject: "VPN access", status: "closed" }]],
    ["c-7", [{ id: "T-3", subject: "Refund", status: "open" }]],
  ]);
  return {
    async search(customerId, query, limit) {
      return (tickets.get(customerId) ?? []).filter((ticket) => ticket.status === query || ticket.subject.toLowerCase().includes(query.toLowerCase())).slice(0, limit);
    },
    close(customerId, ticketId) {
      const ticket = (tickets.get(customerId) ?? []).find((candidate) => candidate.id === ticketId);
      if (!ticket) throw new Error(`customer ${customerId} has no ticket ${ticketId}`);
      ticket.status = "closed";
      return { ...ticket };
    },
  };
}
