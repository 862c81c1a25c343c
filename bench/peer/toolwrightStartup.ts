import { Agent, ChatMessage, type Tool } from "toolwright";
import { addTool, ScriptedAddModel } from "./toolwrightLoop";

/**
 * The start-up workload (W3) in toolwright: `count` tools (`add`, `add1`, …) defined with `new Tool`,
 * or decorated methods registered by their generated module, then an Agent and a run of one call.
 */
export async function runStartup(kind: "newTool" | "decorated", count: number): Promise<void> {
  let tools: Array<Tool | object>;
  if (kind === "decorated") {
    await import("./tools.generated");
    const { BenchTools } = await import("./decoratedTools");
    tools = [new BenchTools()];
  } else {
    tools = [];
    for (let i = 0; i < count; i++) tools.push(addTool(i === 0 ? "add" : `add${i}`));
  }
  const agent = new Agent({ chatGenerator: new ScriptedAddModel({ steps: 1, callsPerStep: 1 }), tools, maxAgentSteps: 2 });
  const result = await agent.run({ messages: [ChatMessage.fromUser("go")] });
  if (result.lastMessage.text !== "done" || result.stepCount !== 2) throw new Error(`the start-up run ended unexpectedly: ${result.exitReason} after ${result.stepCount} steps`);
}
