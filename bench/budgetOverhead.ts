import { Agent, budget, ChatMessage, type Middleware } from "toolwright";
import { z } from "zod";
import { add, OneCallPerStepModel } from "./loopOverhead";
import { fmt, median, timeRuns } from "./measure";

// Limits no run reaches, so every check runs every step and none stops: what is measured is the
// budget's own work (the checks at beforeModel and afterTool, the clock, the cost sum).
const limits = {
  maxInputTokens: 1e12,
  maxOutputTokens: 1e12,
  maxTotalTokens: 1e12,
  maxModelCalls: 1e12,
  maxToolCalls: 1e12,
  maxWallClockMs: 1e12,
  maxCost: { amount: 1e12, model: "scripted", prices: { scripted: { input: 1, output: 4 } } },
};

async function microsecondsPerStep(steps: number, middleware: Middleware[], withKey: boolean): Promise<number> {
  const agent = new Agent({
    chatGenerator: new OneCallPerStepModel(),
    tools: [add],
    maxAgentSteps: steps,
    ...(withKey && { stateSchema: { elapsed_ms: { type: z.number() } } }),
    middleware,
  });
  const runOnce = () => agent.run({ messages: [ChatMessage.fromUser("go")] });
  const times = await timeRuns(runOnce, Math.max(9, Math.round(20_000 / steps)), 3);
  return (median(times) * 1000) / steps;
}

/** What a budget with every limit set adds per step of the agent loop, against the loop with no middleware. */
export async function benchBudgetOverhead(): Promise<string[]> {
  const lines: string[] = [];
  for (const steps of [25, 400]) {
    const none = await microsecondsPerStep(steps, [], false);
    const noop = await microsecondsPerStep(steps, [{ name: "noop", beforeModel() {}, afterTool() {} }], false);
    const plain = await microsecondsPerStep(steps, [budget(limits)], false);
    const keyed = await microsecondsPerStep(steps, [budget({ ...limits, elapsedStateKey: "elapsed_ms" })], true);
    lines.push(
      `budget overhead, ${String(steps).padStart(4)} steps: ${fmt(plain - none)} µs per step (${fmt(none)} → ${fmt(plain)}; a no-op middleware on the same two hooks ${fmt(noop)}); with elapsedStateKey ${fmt(keyed - none)} µs per step`,
    );
  }
  return lines;
}
