import { ChatMessage, Tool } from "toolwright";
import { z } from "zod";

/** The order-lookup tool every part of the example gives its agent: a long result, as real lookups return. */
export function lookupOrder(pad = 0): Tool {
  return new Tool({
    name: "lookup_order",
    description: "Look up an order by id.",
    parameters: z.object({ orderId: z.string() }),
    function: ({ orderId }) => ({ orderId, status: "delivered", history: "scanned at depot; ".repeat(pad) }),
  });
}

/** A scripted reply that looks up `orderId`. */
export function lookup(orderId: string, id: string): ChatMessage {
  return ChatMessage.fromAssistant(undefined, { toolCalls: [{ id, toolName: "lookup_order", arguments: { orderId } }] });
}

/** The customer's question. */
export const question = (text: string) => ({ messages: [ChatMessage.fromUser(text)] });
