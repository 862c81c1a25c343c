import { Agent, ChatMessage, budget } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { lookup, lookupOrder, question } from "./desk";

/** A budget ending a run: two model calls allowed; the run stops, the budget is raised, the snapshot resumes. */
export async function runBudgetExample(print: (line: string) => void): Promise<void> {
  print("== budget: a model-call budget ends the run, raised, the run resumes ==");
  const model = new ScriptedChatGenerator([lookup("A-100", "c1"), lookup("B-200", "c2"), ChatMessage.fromAssistant("A-100 and B-200 were both delivered.")]);
  const calls = budget({ maxModelCalls: 2 });
  const agent = new Agent({ chatGenerator: model, tools: [lookupOrder()], middleware: [calls] });
  const stopped = await agent.run(question("Where are A-100 and B-200?"));
  if (stopped.exitReason !== "budget_exhausted") throw new Error(`expected budget_exhausted, got ${stopped.exitReason}`);
  print(`exitReason: ${stopped.exitReason}; ${stopped.stopped.reason} ${JSON.stringify(stopped.stopped.details)}`);
  calls.setLimits({ maxModelCalls: 5 });
  const resumed = await agent.run({ snapshot: JSON.parse(JSON.stringify(stopped.snapshot)) });
  print(`budget raised to 5; resumed: ${resumed.exitReason} after ${resumed.usage.modelCalls} model calls: ${resumed.lastMessage.text}`);
}
