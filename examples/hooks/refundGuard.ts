import { Agent, type ChatGeneratorRequest, type Middleware } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { customerAsks, deskState, deskTools, reply } from "./refundDesk";

/**
 * A guard: refunds above `limit` never run. The model gets the reason as the call's answer and can
 * tell the customer what happens instead.
 */
export function refundLimit(limit: number): Middleware {
  return {
    name: "refund-limit",
    beforeTool({ toolCall, arguments: args }) {
      if (toolCall.toolName !== "issue_refund" || (args.amount as number) <= limit) return undefined;
      return { action: "reject", feedback: `Refunds above ${limit} need a manager; tell the customer the refund was passed on to one.` };
    },
  };
}

// The model refunds both orders in one step, then answers from what the tools said.
function scriptedModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    reply(undefined, 300, [
      { id: "r1", toolName: "issue_refund", arguments: { orderId: "A-100", amount: 40 } },
      { id: "r2", toolName: "issue_refund", arguments: { orderId: "B-200", amount: 250 } },
    ]),
    (request: ChatGeneratorRequest) => {
      const blocked = request.messages.some((m) => m.toolCallResult?.error && m.toolCallResult.origin.id === "r2");
      return reply(blocked ? "I refunded 40 for the lamp. The chair's refund of 250 needs a manager, so I passed it on to one." : "I refunded both orders.", 200);
    },
  ]);
}

/** Runs the guard example: one refund runs, the one over the limit is blocked. */
export async function runGuardExample(print: (line: string) => void = console.log) {
  const agent = new Agent({ name: "refund-desk", chatGenerator: scriptedModel(), tools: deskTools(), stateSchema: deskState, middleware: [refundLimit(100)] });
  const result = await agent.run(customerAsks("Please refund my lamp (A-100) and my chair (B-200)."));
  print("== guard: beforeTool rejects refunds above 100 ==");
  for (const message of result.messages) {
    const answer = message.toolCallResult;
    if (answer) print(`${answer.origin.toolName}(${JSON.stringify(answer.origin.arguments)}) -> ${answer.error ? "blocked" : "ran"}: ${answer.result}`);
  }
  print(`refunds in state: ${JSON.stringify(result.refunds)}`);
  print(`answer: ${result.lastMessage.text}`);
  return result;
}
