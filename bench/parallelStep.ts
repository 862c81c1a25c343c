import { setTimeout as sleep } from "node:timers/promises";
import { Agent, ChatMessage, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { fmt, median, timeRuns } from "./measure";

const slow = new Tool({
  name: "slow",
  description: "Waits 50 ms.",
  parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  function: ({ n }, { signal }) => sleep(50, n, { signal }),
});

/** One step with 10 parallel calls of a 50 ms tool at concurrency 4; the floor is 3 × 50 = 150 ms. */
export async function benchParallelStep(): Promise<string[]> {
  const calls = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, toolName: "slow", arguments: { n: i } }));
  const runOnce = () =>
    new Agent({
      chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: calls }), ChatMessage.fromAssistant("done")]),
      tools: [slow],
      toolConcurrency: 4,
    }).run({ messages: [ChatMessage.fromUser("go")] });
  const ms = median(await timeRuns(runOnce, 7, 1));
  return [`parallel step, 10 × 50 ms calls at concurrency 4: ${fmt(ms)} ms (floor 150 ms, +${fmt(((ms - 150) / 150) * 100)} %; target ≤ 10 %)`];
}
