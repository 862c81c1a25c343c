import { z } from "zod";
import { Agent, ChatMessage, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { fmt, median, timeRuns } from "./measure";

const lookup = new Tool({
  name: "lookup",
  description: "Looks up a key for the customer.",
  parameters: { type: "object", properties: { key: { type: "string" }, customerId: { type: "string" } }, required: ["key", "customerId"] },
  inputsFromState: { customer_id: "customerId" },
  function: ({ key }) => `value of ${String(key)}`,
});

/** One model reply with 1,000 and with 10,000 tool calls (each reading a state key): every per-step pass must be linear. */
export async function benchWideReply(): Promise<string[]> {
  const lines: string[] = [];
  for (const count of [1_000, 10_000]) {
    const calls = Array.from({ length: count }, (_, i) => ({ id: `c${i}`, toolName: "lookup", arguments: { key: `k${i}` } }));
    const runOnce = () =>
      new Agent({
        chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: calls }), ChatMessage.fromAssistant("done")]),
        tools: [lookup],
        stateSchema: { customer_id: { type: z.string() } },
      }).run({ messages: [ChatMessage.fromUser("go")], customer_id: "c-42" });
    const ms = median(await timeRuns(runOnce, 5, 1));
    lines.push(`one reply with ${String(count).padStart(5)} tool calls: ${fmt(ms)} ms, ${fmt((ms * 1000) / count)} µs per call (linear)`);
  }
  return lines;
}
