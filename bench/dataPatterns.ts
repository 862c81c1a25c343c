import { z } from "zod";
import { Agent, ChatMessage, type ChatGenerator, type ChatGeneratorResponse, Tool } from "toolwright";
import { fmt, median, timeRuns } from "./measure";

const steps = 400;

// A model that costs nothing: every step one call of `lookup` with a ticket id that matches the pattern.
class TicketModel implements ChatGenerator {
  #step = 0;
  async run(): Promise<ChatGeneratorResponse> {
    this.#step += 1;
    const id = `AB-${String(this.#step % 10_000).padStart(4, "0")}`;
    return { replies: [ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `c${this.#step}`, toolName: "lookup", arguments: { id } }] })] };
  }
}

const pattern = "^[A-Z]{2}-\\d{4}$";
const jsonSchemaTool = new Tool({
  name: "lookup",
  description: "Look a ticket up.",
  parameters: { type: "object", properties: { id: { type: "string", pattern } }, required: ["id"] },
  function: ({ id }) => `ticket ${String(id)}`,
});
const zodTool = new Tool({ name: "lookup", description: "Look a ticket up.", parameters: z.object({ id: z.string().regex(new RegExp(pattern)) }), function: ({ id }) => `ticket ${id}` });

async function microsecondsPerCall(tool: Tool): Promise<number> {
  const agent = new Agent({ chatGenerator: new TicketModel(), tools: [tool], maxAgentSteps: steps });
  const times = await timeRuns(() => agent.run({ messages: [ChatMessage.fromUser("go")] }), 15, 3);
  return (median(times) * 1000) / steps;
}

/**
 * A tool call whose argument has a `pattern`: in a JSON Schema (data, so matched by RE2 in linear
 * time) against the same pattern in a zod schema (code, so RegExp); and a catastrophic pattern from
 * data against an adversarial argument, which RegExp would not finish.
 */
export async function benchDataPatterns(): Promise<string[]> {
  const lines: string[] = [];
  for (let round = 0; round < 2; round++) {
    const data = await microsecondsPerCall(jsonSchemaTool);
    const code = await microsecondsPerCall(zodTool);
    lines.push(`pattern per tool call (${steps} steps), round ${round + 1}: JSON Schema pattern on RE2 ${fmt(data)} µs, zod regex on RegExp ${fmt(code)} µs`);
  }
  const hostile = new Tool({ name: "check", description: "Check.", parameters: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } }, required: ["s"] }, function: () => "ok" });
  for (const length of [1_000, 100_000]) {
    const text = `${"a".repeat(length)}!`;
    let step = 0;
    const model: ChatGenerator = {
      run: async () => ({ replies: [step++ === 0 ? ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "check", arguments: { s: text } }] }) : ChatMessage.fromAssistant("done")] }),
    };
    const agent = new Agent({ chatGenerator: model, tools: [hostile] });
    const times = await timeRuns(() => ((step = 0), agent.run({ messages: [ChatMessage.fromUser("go")] })), 5, 1);
    lines.push(`pattern ^(a+)+$ from data against ${length.toLocaleString("en-US")} a's and a '!': the call refused in ${fmt(median(times), 2)} ms (RegExp takes exponential time: ~35 characters stall it)`);
  }
  return lines;
}
