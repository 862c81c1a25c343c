import { Agent, ChatMessage, countTokens, estimateTokenCounter, pruneToolResults, readToolResult, slidingWindow } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { lookup, lookupOrder, question } from "./desk";

/** Compaction in a long run: 200 lookups with long results, every request kept under 4,000 tokens. */
export async function runCompactionExample(print: (line: string) => void): Promise<void> {
  print("== compaction: a 200-step run, each request under 4,000 tokens ==");
  const steps = 200;
  const script = Array.from({ length: steps }, (_, i) => lookup(`A-${i}`, `c${i}`));
  const model = new ScriptedChatGenerator([...script, ChatMessage.fromAssistant("All 200 orders were delivered.")]);
  const agent = new Agent({
    chatGenerator: model,
    tools: [lookupOrder(40), readToolResult()],
    maxAgentSteps: steps + 1,
    middleware: [pruneToolResults({ keepLast: 2, maxChars: 300 }), slidingWindow({ maxTokens: 4000 })],
  });
  const result = await agent.run(question("Check every order from A-0 to A-199."));
  const sent = model.requests.map((request) => countTokens(request.messages, estimateTokenCounter));
  print(`exitReason: ${result.exitReason} after ${result.stepCount} model calls`);
  print(`largest request: ${Math.max(...sent)} tokens; the whole conversation: ${countTokens(result.messages, estimateTokenCounter)} tokens in ${result.messages.length} messages, all kept in state`);
}
