import { Agent, ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse, Tool } from "toolwright";
import { fmt, median, timeRuns } from "./measure";

// A model that costs nothing: every step it calls the trivial tool once, so what is measured is
// the agent's own work per step (history, validation, scheduling, merging, messages). It names a
// model and a provider, as real generators do (the tracing bench's spans carry them).
export class OneCallPerStepModel implements ChatGenerator {
  readonly model = "scripted";
  readonly provider = "bench";
  #step = 0;
  async run(_request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    this.#step += 1;
    return { replies: [ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `c${this.#step}`, toolName: "add", arguments: { a: this.#step, b: 1 } }] })] };
  }
}

export const add = new Tool({
  name: "add",
  description: "Add two numbers.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  function: ({ a, b }) => (a as number) + (b as number),
});

async function microsecondsPerCall(steps: number): Promise<number> {
  // The Agent is built once, as a service would; each run is one conversation of `steps` tool calls.
  const agent = new Agent({ chatGenerator: new OneCallPerStepModel(), tools: [add], maxAgentSteps: steps });
  const runOnce = () => agent.run({ messages: [ChatMessage.fromUser("go")] });
  const repeats = Math.max(9, Math.round(20_000 / steps));
  const times = await timeRuns(runOnce, repeats, 3);
  return (median(times) * 1000) / steps;
}

/** Agent-loop overhead per tool call at several run lengths. */
export async function benchLoopOverhead(): Promise<string[]> {
  const lines: string[] = [];
  for (const steps of [25, 400, 1000]) {
    const us = await microsecondsPerCall(steps);
    lines.push(`loop overhead, ${String(steps).padStart(4)} steps: ${fmt(us)} µs per tool call (target ≤ 20)`);
  }
  return lines;
}
