import { tool } from "toolwright";

/** The conversations guide's ticket desk: the second turn closes a ticket the first turn found. */
export class ThreadTools {
  /** The tickets, by id, with their status. */
  readonly tickets = new Map([["T-1", "open"], ["T-2", "open"]]);

  /**
   * Close one of the customer's tickets.
   * @param ticketId The ticket to close, e.g. T-1.
   */
  @tool({ name: "resolve_ticket" })
  closeTicket(ticketId: string): string {
    if (!this.tickets.has(ticketId)) throw new Error(`There is no ticket ${ticketId}.`);
    this.tickets.set(ticketId, "closed");
    return `Ticket ${ticketId} is closed.`;
  }
}
