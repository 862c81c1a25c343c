import { Agent, type Middleware } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { customerAsks, deskState, deskTools, reply } from "./refundDesk";

/** The budget a run may spend; raise it between runs to let a stopped run go on. */
export interface Budget {
  maxTotalTokens: number;
  maxModelCalls: number;
}

/**
 * A budget: before each model call, stops the run when the tokens or model calls it used so far
 * (a resumed run's include those before the stop) reach the budget. The stop's snapshot continues
 * the run once the budget is raised.
 */
export function tokenBudget(budget: Budget): Middleware {
  return {
    name: "budget",
    beforeModel({ usage }) {
      if (usage.totalTokens < budget.maxTotalTokens && usage.modelCalls < budget.maxModelCalls) return undefined;
      return { stop: { reason: "the run's budget is spent", details: { ...budget, totalTokens: usage.totalTokens, modelCalls: usage.modelCalls } } };
    },
  };
}

// The model looks up both orders, one step each, then answers.
function scriptedModel(): ScriptedChatGenerator {
  return new ScriptedChatGenerator([
    reply(undefined, 350, [{ id: "l1", toolName: "lookup_order", arguments: { orderId: "A-100" } }]),
    reply(undefined, 420, [{ id: "l2", toolName: "lookup_order", arguments: { orderId: "B-200" } }]),
    reply("You paid 40 for the lamp (A-100) and 250 for the chair (B-200).", 300),
  ]);
}

/** Runs the budget example: the run stops when its tokens are spent, and goes on from its snapshot once the budget is raised. */
export async function runBudgetExample(print: (line: string) => void = console.log) {
  const budget: Budget = { maxTotalTokens: 700, maxModelCalls: 10 };
  const agent = new Agent({ name: "refund-desk", chatGenerator: scriptedModel(), tools: deskTools(), stateSchema: deskState, middleware: [tokenBudget(budget)] });
  print("== budget: beforeModel stops the run when its tokens are spent ==");
  const first = await agent.run(customerAsks("What did I pay for my two orders, A-100 and B-200?"));
  if (first.exitReason !== "stopped") throw new Error(`expected the budget to stop the run, got ${first.exitReason}`);
  print(`stopped by '${first.stopped.middleware}' at ${first.stopped.hook}: ${first.stopped.reason} ${JSON.stringify(first.stopped.details)}`);
  print(`after ${first.usage.modelCalls} model calls and ${first.usage.totalTokens} tokens; the snapshot resumes at the ${first.snapshot.next === "chat_generator" ? "next model call" : "tool calls"}`);
  budget.maxTotalTokens = 2000;
  const resumed = await agent.run({ snapshot: first.snapshot });
  print(`budget raised to ${budget.maxTotalTokens} tokens; resumed: ${resumed.exitReason} after ${resumed.usage.modelCalls} model calls and ${resumed.usage.totalTokens} tokens in all`);
  print(`answer: ${resumed.lastMessage.text}`);
  return { first, resumed };
}
