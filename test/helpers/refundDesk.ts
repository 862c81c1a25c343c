import { z } from "zod";
import { Agent, type AgentOptions, ChatMessage, type StateSchema, Tool, type ToolCall } from "toolwright";
import { ScriptedChatGenerator, type ScriptEntry } from "toolwright/testing";

/** The refund desk's state: the customer (injected into both tools) and the refunds `issue_refund` adds. */
export const deskState = {
  customer_id: { type: z.string() },
  refunds: { type: z.array(z.object({ orderId: z.string(), amount: z.number() })) },
} satisfies StateSchema;

/** What the desk's tools were called with, in order. */
export type CallLog = Array<{ tool: string; args: Record<string, unknown> }>;

/**
 * `lookup_order` (returns the order) and `issue_refund` (adds `{ orderId, amount }` to `refunds`,
 * and tells the model `Refunded <amount> on <orderId>.`); both read `customer_id` from state and log
 * their calls.
 */
export function deskTools(log: CallLog): Tool[] {
  return [
    new Tool({
      name: "lookup_order",
      description: "Look up one of the customer's orders.",
      parameters: { type: "object", properties: { orderId: { type: "string" }, customerId: { type: "string" } }, required: ["orderId", "customerId"] },
      inputsFromState: { customer_id: "customerId" },
      function: (args) => {
        log.push({ tool: "lookup_order", args });
        return { orderId: args.orderId, paid: 49 };
      },
    }),
    new Tool({
      name: "issue_refund",
      description: "Refund an order.",
      parameters: {
        type: "object",
        properties: { orderId: { type: "string" }, amount: { type: "number", minimum: 1 }, customerId: { type: "string" } },
        required: ["orderId", "amount", "customerId"],
      },
      inputsFromState: { customer_id: "customerId" },
      outputsToState: { refunds: {} },
      outputsToString: { handler: (refund: { orderId: string; amount: number }) => `Refunded ${refund.amount} on ${refund.orderId}.` },
      function: (args) => {
        log.push({ tool: "issue_refund", args });
        return { orderId: args.orderId, amount: args.amount };
      },
    }),
  ];
}

export const lookupCall: ToolCall = { id: "l1", toolName: "lookup_order", arguments: { orderId: "A-100" } };
export const refundCall: ToolCall = { id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 49 } };

/** An assistant reply making these calls. */
export function calls(...toolCalls: ToolCall[]): ChatMessage {
  return ChatMessage.fromAssistant(undefined, { toolCalls });
}

/** A refund desk Agent answering from `script`, with its scripted model and its tools' call log. */
export function refundDesk(options: { script: readonly ScriptEntry[] } & Omit<Partial<AgentOptions<typeof deskState>>, "exitConditions">) {
  const { script, ...rest } = options;
  const log: CallLog = [];
  const model = new ScriptedChatGenerator(script);
  const agent = new Agent({ chatGenerator: model, tools: deskTools(log), stateSchema: deskState, ...rest });
  return { agent, model, log };
}

/** The customer's question, as a run's input. */
export function question() {
  return { messages: [ChatMessage.fromUser("Refund order A-100, please.")], customer_id: "c-7" };
}

/** The rejection of `promise`, for asserting on the error's fields. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the promise to reject");
}

/** The error `fn` throws. */
export function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the function to throw");
}

/** The messages as JSON, role and content only, for comparing conversations. */
export function transcript(messages: readonly ChatMessage[]): Array<{ role: string; text?: string; toolCalls?: string[]; error?: boolean }> {
  return messages.map((m) => ({
    role: m.role,
    ...(m.text !== undefined && { text: m.text }),
    ...(m.toolCalls.length > 0 && { toolCalls: m.toolCalls.map((c) => c.toolName) }),
    ...(m.toolCallResult && { text: m.toolCallResult.result, error: m.toolCallResult.error }),
  }));
}

/** A promise with its resolve function outside, for hooks and tools that signal they started. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
