import { z } from "zod";
import { type Integer, type State, type StateSchema, tool } from "toolwright";

export const helpdeskState = {
  customer_id: { type: z.string() },
  orders: { type: z.array(z.object({ id: z.string(), deliverAt: z.date(), lines: z.number() })) },
} satisfies StateSchema;

/** A span of time. */
export interface DateRange {
  /** First moment, inclusive. */
  from: Date;
  /** Last moment; open-ended when left out. */
  until?: Date;
}

/** Which tickets to look at. */
export interface TicketFilter {
  status?: "open" | "pending" | "closed";
  range?: DateRange;
  /** Tags that must all be present. */
  tags: string[];
}

/** One line of an order. */
export interface LineItem {
  sku: string;
  /** @minimum 1 */
  quantity: Integer;
  note?: string | null;
}

/** What the tools saw, for the test to inspect. */
export const calls: unknown[][] = [];

export class HelpdeskTools {
  /**
   * Search the customer's tickets.
   * @param query Words to look for.
   * @param filter Which tickets to consider.
   * @param limit Maximum number of results.
   * @param priority Only tickets of this priority.
   */
  @tool({ inputsFromState: { customer_id: "customerId" } })
  async searchTickets(query: string, customerId: string, filter: TicketFilter, limit = 10, priority?: "urgent" | "normal" | "low"): Promise<string> {
    calls.push(["searchTickets", query, customerId, filter, limit, priority]);
    return `${customerId}: 2 tickets match "${query}"`;
  }

  /**
   * Order replacement parts for the customer.
   * @param items What to order.
   * @param deliverAt When to deliver.
   */
  @tool({ outputsToState: { orders: { source: "order" } } })
  placeOrder(items: LineItem[], deliverAt: Date, state: State<typeof helpdeskState>): { order: { id: string; deliverAt: Date; lines: number } } {
    calls.push(["placeOrder", items, deliverAt, state.get("customer_id")]);
    return { order: { id: `O-${items.length}`, deliverAt, lines: items.length } };
  }
}
