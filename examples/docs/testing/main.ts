// The code of docs/testing.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { Agent, Tool } from "toolwright";
// #region imports
import { ChatMessage } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
// #endregion

/** Runs an agent on the scripted model: a tool call, then an answer built from the tool's result. */
export async function run(): Promise<void> {
  // #region script
  const model = new ScriptedChatGenerator([
    toolCallReply(["search_tickets", { query: "printer" }]),          // step 1: a tool call
    (request) => ChatMessage.fromAssistant(`Found: ${request.messages.at(-1)?.toolCallResult?.result}`),
  ]);
  // model.requests: every request the agent made, in order.
  // #endregion

  const searchTickets = new Tool({
    name: "search_tickets",
    description: "Search tickets.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    function: (args) => `T-1 (${String(args.query)})`,
  });
  const result = await new Agent({ chatGenerator: model, tools: [searchTickets] }).run({ messages: [ChatMessage.fromUser("Find my printer ticket.")] });
  assert.equal(result.lastMessage.text, "Found: T-1 (printer)");
  assert.equal(model.requests.length, 2);
  assert.equal(model.requests[0]?.tools?.[0]?.name, "search_tickets");
  // A call past the end of the script throws, saying how many entries it had.
  await assert.rejects(
    model.run({ messages: [ChatMessage.fromUser("Again?")], tools: [] }),
    { message: "ScriptedChatGenerator received call 3, but its script has 2 entries; add an entry for every model call the run makes." },
  );
}
