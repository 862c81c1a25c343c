import { z } from "zod";
import { type StateSchema, tool } from "toolwright";

/** The service's state: the signed-in customer (from the session, never the model) and refunds issued. */
export const serviceState = {
  customer_id: { type: z.string() },
  refunds: { type: z.array(z.object({ orderId: z.string(), amount: z.number() })) },
} satisfies StateSchema;

const orders: Record<string, { customerId: string; item: string; paid: number }> = {
  "A-100": { customerId: "c-42", item: "Desk lamp", paid: 49 },
  "A-101": { customerId: "c-42", item: "Office chair", paid: 189 },
};

/** Order lookup (runs freely) and refunds (need a person's approval: see main.ts). */
export class RefundTools {
  /**
   * Look up one of the customer's orders.
   * @param orderId The order number, e.g. A-100.
   */
  @tool({ name: "lookup_order", inputsFromState: { customer_id: "customerId" } })
  lookupOrder(orderId: string, customerId: string): { orderId: string; item: string; paid: number } {
    const order = orders[orderId];
    if (!order || order.customerId !== customerId) throw new Error(`no order ${orderId} for this customer`);
    return { orderId, item: order.item, paid: order.paid };
  }

  /**
   * Refund (part of) an order to the customer.
   * @param orderId The order to refund.
   * @param amount How much to refund, at most what was paid.
   */
  @tool({ name: "issue_refund", inputsFromState: { customer_id: "customerId" }, outputsToState: { refunds: {} } })
  issueRefund(orderId: string, amount: number, customerId: string): { orderId: string; amount: number } {
    const order = orders[orderId];
    if (!order || order.customerId !== customerId) throw new Error(`no order ${orderId} for this customer`);
    if (amount > order.paid) throw new Error(`the refund is more than the ${order.paid} paid`);
    return { orderId, amount };
  }
}
