import { z } from "zod";

/** A support ticket. */
export const Ticket = z.object({
  id: z.string(),
  customerId: z.string(),
  subject: z.string(),
  status: z.enum(["open", "closed"]),
});
export type Ticket = z.infer<typeof Ticket>;

/** An in-memory ticket archive standing in for a database. */
export class TicketStore {
  readonly #tickets = new Map<string, Ticket>();

  constructor(tickets: Ticket[]) {
    for (const ticket of tickets) this.#tickets.set(ticket.id, { ...ticket });
  }

  search(customerId: string, query: string, limit: number): Ticket[] {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return [...this.#tickets.values()]
      .filter((t) => t.customerId === customerId)
      .filter((t) => words.length === 0 || words.some((w) => t.subject.toLowerCase().includes(w) || t.status === w))
      .slice(0, limit);
  }

  close(customerId: string, ticketId: string): Ticket {
    const ticket = this.#tickets.get(ticketId);
    if (!ticket || ticket.customerId !== customerId) throw new Error(`no ticket ${ticketId} for this customer`);
    ticket.status = "closed";
    return { ...ticket };
  }
}

/** The tickets the example starts with. */
export function demoStore(): TicketStore {
  return new TicketStore([
    { id: "T-1", customerId: "c-42", subject: "Printer offline", status: "open" },
    { id: "T-2", customerId: "c-42", subject: "Invoice shows the wrong address", status: "open" },
    { id: "T-3", customerId: "c-7", subject: "Password reset", status: "open" },
  ]);
}
