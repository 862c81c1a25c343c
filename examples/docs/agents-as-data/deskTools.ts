import { tool } from "toolwright";

/** A ticket as the agents-as-data guide's definition stores it. */
export interface DeskTicket {
  id: string;
  customerId: string;
  status: "open" | "closed";
}

/** The tickets the desk tools read and close, by id. */
export class DeskStore {
  readonly tickets = new Map<string, DeskTicket>([["T-1", { id: "T-1", customerId: "c-42", status: "open" }]]);
}

/** The desk tools agent.yaml names by class; which state keys they read and write is the definition's. */
export class DeskTools {
  constructor(private readonly store: DeskStore) {}

  /**
   * Close one of the customer's tickets.
   * @param ticketId The ticket to close, e.g. T-1.
   * @param customerId The customer the ticket belongs to.
   */
  @tool({ name: "close_ticket" })
  closeTicket(ticketId: string, customerId: string): { ticket: DeskTicket } {
    const ticket = this.store.tickets.get(ticketId);
    if (!ticket || ticket.customerId !== customerId) throw new Error(`No ticket ${ticketId} belongs to this customer.`);
    ticket.status = "closed";
    return { ticket: { ...ticket } };
  }

  /**
   * Hand a ticket to a person on the second-level team; ends the conversation.
   * @param ticketId The ticket to hand over.
   * @param reason Why a person must look at it, in one sentence.
   */
  @tool({ name: "escalate" })
  escalate(ticketId: string, reason: string): { ticketId: string; reason: string } {
    return { ticketId, reason };
  }
}

/** The merge handler agent.yaml names for `tickets`: a ticket written again replaces its earlier copy. */
export function latestTickets(current: DeskTicket[] | undefined, incoming: DeskTicket[] | DeskTicket): DeskTicket[] {
  const byId = new Map((current ?? []).map((ticket) => [ticket.id, ticket]));
  for (const ticket of Array.isArray(incoming) ? incoming : [incoming]) byId.set(ticket.id, ticket);
  return [...byId.values()];
}
