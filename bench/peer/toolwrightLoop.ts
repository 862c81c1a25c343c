import { Agent, ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse, Tool } from "toolwright";
import type { BareShape } from "./bareLoop";

/** The scripted model of the bare loop, as a ChatGenerator: `steps` replies of `callsPerStep` calls, then text. */
export class ScriptedAddModel implements ChatGenerator {
  #step = 0;
  constructor(private readonly shape: BareShape) {}

  async run(_request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const step = this.#step++;
    if (step >= this.shape.steps) {
      this.#step = 0;
      return { replies: [ChatMessage.fromAssistant("done")] };
    }
    const toolCalls = [];
    for (let i = 0; i < this.shape.callsPerStep; i++) toolCalls.push({ id: `c${step}_${i}`, toolName: "add", arguments: { a: step, b: i } });
    return { replies: [ChatMessage.fromAssistant(undefined, { toolCalls })] };
  }
}

/** A `new Tool` named `name` that adds two numbers, as the peers' harness defines its tool at run time. */
export function addTool(name = "add"): Tool {
  return new Tool({
    name,
    description: "Add two numbers.",
    parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    function: ({ a, b }) => (a as number) + (b as number),
  });
}

/** The Agent of the loop workloads: built once, as a service would; each run is one conversation. */
export function toolwrightAgent(shape: BareShape): Agent {
  return new Agent({ chatGenerator: new ScriptedAddModel(shape), tools: [addTool()], maxAgentSteps: shape.steps + 1 });
}
