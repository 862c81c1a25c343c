// Part 2 of the MCP example: an Agent whose tools are two MCP servers' tools. McpToolset.connect
// launches each server, reads its tools and gives them as a Toolset; the Agent takes them like any
// other tools. The prefixes keep the two servers' tools apart for the model.
import { join } from "node:path";
import { Agent, ChatMessage, type ChatGenerator } from "toolwright";
import { McpToolset } from "toolwright/mcp";
import { createNotesFolder } from "./notesFolder";

type Say = (line: string) => void;

/** Shortens a tool result for printing. */
function brief(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** Runs the agent on a notes folder and the support desk (customer c-42); resolves with its answer. */
export async function runAgentOverMcp(model: ChatGenerator, say: Say): Promise<string> {
  const notes = await createNotesFolder();
  say(`notes folder ${notes.path}: handover.md, visit-log.txt`);
  const toolsets: McpToolset[] = [];
  try {
    // The reference filesystem server (a dev dependency here), allowed into that folder only; of its
    // 14 tools the model gets two.
    const server = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
    toolsets.push(await McpToolset.connect({ command: process.execPath, args: [server, notes.path], stderr: "ignore" }, { prefix: "fs_", include: ["list_directory", "read_text_file"] }));
    // The support desk of ./server.ts over stdio, acting for customer c-42: a process of its own, so
    // its in-memory tickets start afresh (what part 1 closed is open again).
    toolsets.push(await McpToolset.connect({ command: process.execPath, args: [join(__dirname, "server.js")], env: { SUPPORT_CUSTOMER_ID: "c-42" } }, { prefix: "desk_" }));
    for (const toolset of toolsets) say(`McpToolset '${toolset.name}': ${toolset.tools.map((t) => t.name).join(", ")}`);
    const agent = new Agent({
      chatGenerator: model,
      tools: toolsets,
      systemPrompt: "You are a support assistant. Use the file tools to read notes and the desk tools to look up and close the customer's tickets.",
      maxAgentSteps: 10,
    });
    const result = await agent.run({ messages: [ChatMessage.fromUser(`Read the handover note in the folder ${notes.path} and do what it says about my tickets.`)] });
    for (const message of result.messages) {
      for (const call of message.toolCalls) say(`model → ${call.toolName}(${JSON.stringify(call.arguments)})`);
      const output = message.toolCallResult;
      if (output) say(`${output.origin.toolName} ${output.error ? "failed" : "→"} ${brief(output.result)}`);
    }
    say(`answer (${result.exitReason} after ${result.stepCount} model calls): ${result.lastMessage.text}`);
    if (result.exitReason !== "text") throw new Error(`the run ended with ${result.exitReason}`);
    return result.lastMessage.text ?? "";
  } finally {
    await Promise.all(toolsets.map((toolset) => toolset.close()));
    await notes.remove();
    say("closed both toolsets (their server processes ended) and removed the notes folder");
  }
}
