import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { Agent, ChatMessage, promptTemplate, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { importHaystackAgent } from "toolwright/yaml";
import { fmt, median, timeRuns } from "./measure";

const write = new Tool({
  name: "write",
  description: "Writes the note.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  outputsToState: { note: { source: "note" } },
  function: ({ text }) => ({ note: text }),
});
const read = new Tool({
  name: "read",
  description: "Reads the note.",
  parameters: { type: "object", properties: { note: { type: "string" } } },
  inputsFromState: { note: "note" },
  function: ({ note }) => `note is ${String(note)}`,
});
const append = new Tool({
  name: "append",
  description: "Reads the note and writes it longer.",
  parameters: { type: "object", properties: { text: { type: "string" }, note: { type: "string" } }, required: ["text"] },
  inputsFromState: { note: "note" },
  outputsToState: { note: { source: "note" } },
  function: ({ text, note }) => ({ note: `${String(note)}${String(text)}`.slice(-20) }),
});

/** Runs one reply of `count` calls through an Agent; the median ms and µs per call. */
async function step(count: number, callOf: (i: number) => { toolName: string; arguments: Record<string, unknown> }, tools: Tool[]): Promise<number> {
  const calls = Array.from({ length: count }, (_, i) => ({ id: `c${i}`, ...callOf(i) }));
  const runOnce = () =>
    new Agent({
      chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant(undefined, { toolCalls: calls }), ChatMessage.fromAssistant("done")]),
      tools,
      stateSchema: { note: { type: z.string() } },
    }).run({ messages: [ChatMessage.fromUser("go")], note: "" });
  return median(await timeRuns(runOnce, 5, 1));
}

/**
 * Issue #33's Haystack behaviours at scale: Haystack main's read-after-write batches on a wide
 * reply (readers before writers in the model's order; every call reading and writing one key, the
 * worst case, one call per batch), {% message %} templates against plain ones, and import-haystack
 * on the YAML Haystack main wrote.
 */
export async function benchHaystack(): Promise<string[]> {
  const lines: string[] = [];
  for (const count of [1_000, 10_000]) {
    const mixed = await step(count, (i) => (i % 2 === 0 ? { toolName: "read", arguments: {} } : { toolName: "write", arguments: { text: `t${i}` } }), [read, write]);
    lines.push(`one reply of ${String(count).padStart(5)} calls, readers asked before writers (2 batches): ${fmt(mixed)} ms, ${fmt((mixed * 1000) / count)} µs per call`);
    const chained = await step(count, (i) => ({ toolName: "append", arguments: { text: String(i % 10) } }), [append]);
    lines.push(`one reply of ${String(count).padStart(5)} calls each reading and writing one key (${count} batches): ${fmt(chained)} ms, ${fmt((chained * 1000) / count)} µs per call`);
  }
  const blocks = promptTemplate('{% message role="system" %}You answer questions about {{ topic }}.{% endmessage %}\n{% message role="user" name="ada" %}Hello {{ name }}!\nLine two.{% endmessage %}');
  const plain = promptTemplate("You answer questions about {{ topic }}. Hello {{ name }}!\nLine two.");
  const values = { topic: "rivers", name: "Ada" };
  const renders = 10_000;
  const blockMs = median(await timeRuns(() => { for (let i = 0; i < renders; i++) blocks.renderMessages(values); }, 5, 1));
  const plainMs = median(await timeRuns(() => { for (let i = 0; i < renders; i++) plain.render(values); }, 5, 1));
  lines.push(`a template of two {% message %} blocks to ChatMessages: ${fmt((blockMs * 1000) / renders, 2)} µs per render (the same text as a plain template: ${fmt((plainMs * 1000) / renders, 2)} µs)`);
  const { yaml } = JSON.parse(readFileSync(join(__dirname, "../../test/haystack/fixtures/main/agent-yaml.json"), "utf8")) as { yaml: string };
  const imports = 200;
  const importMs = median(await timeRuns(() => { for (let i = 0; i < imports; i++) importHaystackAgent(yaml, { file: "agent.yaml" }); }, 5, 1));
  lines.push(`import-haystack on Haystack main's Agent YAML (${yaml.length.toLocaleString("en")} bytes, 4 tools, hooks): ${fmt(importMs / imports, 2)} ms per conversion`);
  return lines;
}
