import { z } from "zod";
import { ChatMessage, type StateSchema, Tool } from "toolwright";

/** The desk's state: the customer (injected into the tools, never sent to the model) and the refunds issued. */
export const deskState = {
  customer_id: { type: z.string() },
  refunds: { type: z.array(z.object({ orderId: z.string(), amount: z.number() })) },
} satisfies StateSchema;

// The orders of the demo shop, by customer.
const orders: Record<string, Record<string, { item: string; paid: number }>> = {
  "c-7": { "A-100": { item: "desk lamp", paid: 40 }, "B-200": { item: "office chair", paid: 250 } },
};

/** `lookup_order` and `issue_refund` for the signed-in customer; `issue_refund` adds to `refunds`. */
export function deskTools(): Tool[] {
  return [
    new Tool({
      name: "lookup_order",
      description: "Look up one of the customer's orders.",
      parameters: { type: "object", properties: { orderId: { type: "string" }, customerId: { type: "string" } }, required: ["orderId", "customerId"] },
      inputsFromState: { customer_id: "customerId" },
      function: ({ orderId, customerId }) => {
        const order = orders[customerId as string]?.[orderId as string];
        if (!order) throw new Error(`Order ${String(orderId)} is not one of this customer's orders.`);
        return { orderId, ...order };
      },
    }),
    new Tool({
      name: "issue_refund",
      description: "Refund (part of) an order.",
      parameters: {
        type: "object",
        properties: { orderId: { type: "string" }, amount: { type: "number", minimum: 1 }, customerId: { type: "string" } },
        required: ["orderId", "amount", "customerId"],
      },
      inputsFromState: { customer_id: "customerId" },
      outputsToState: { refunds: {} },
      outputsToString: { handler: (refund: { orderId: string; amount: number }) => `Refunded ${refund.amount} on ${refund.orderId}.` },
      function: ({ orderId, amount }) => ({ orderId, amount }),
    }),
  ];
}

/** The customer's message, as a run's input. */
export function customerAsks(text: string) {
  return { messages: [ChatMessage.fromUser(text)], customer_id: "c-7" };
}

/** A scripted reply that reports its token usage, as a provider does. */
export function reply(text: string | undefined, tokens: number, toolCalls: Array<{ id: string; toolName: string; arguments: Record<string, unknown> }> = []): ChatMessage {
  const usage = { inputTokens: tokens - 50, outputTokens: 50, totalTokens: tokens };
  return ChatMessage.fromAssistant(text, { toolCalls, meta: { usage } });
}
