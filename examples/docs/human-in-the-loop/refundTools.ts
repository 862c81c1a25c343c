import { tool } from "toolwright";

/** The human-in-the-loop guide's tools: a lookup anyone may run once confirmed, and a refund a person approves. */
export class RefundTools {
  /** The refunds that ran, in order. */
  readonly refunds: Array<{ orderId: string; amount: number }> = [];

  /**
   * Look an order up.
   * @param orderId The order, e.g. O-7.
   */
  @tool({ name: "lookup_order" })
  lookupOrder(orderId: string): string {
    return `Order ${orderId}: a printer, 120 EUR, delivered.`;
  }

  /**
   * Refund an order.
   * @param orderId The order to refund.
   * @param amount The amount in EUR.
   */
  @tool({ name: "issue_refund" })
  issueRefund(orderId: string, amount: number): string {
    this.refunds.push({ orderId, amount });
    return `Refunded ${amount} EUR for ${orderId}.`;
  }
}
