// The code of docs/tools-and-codegen.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { ChatMessage } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { toolSchemas } from "./tools.generated";
import { index } from "./docsIndex";
import { SupportTools } from "./supportTools";
import { store, supportState } from "./ticketDesk";
// #region define-tool
import { z } from "zod";
import { Agent, defineTool, type State } from "toolwright";

export const searchDocs = defineTool(async function searchDocs(query: string, state: State) { return index.search(query); }, { outputsToState: { docs: {} } });
// #endregion
// #region tool-imports
import { Tool, Toolset } from "toolwright";
// #endregion

/** Runs the guide's three tools: a defineTool function, Tool objects, and a @tool method with JSDoc tags. */
export async function run(): Promise<void> {
  const chatGenerator = new ScriptedChatGenerator([toolCallReply(["searchDocs", { query: "state" }]), ChatMessage.fromAssistant("Found it.")]);
  // #region define-tool-agent
  const stateSchema = { docs: { type: z.array(z.string()) } };      // the whole list is written to docs
  new Agent({ chatGenerator, stateSchema, tools: [searchDocs] });
  // #endregion
  const found = await new Agent({ chatGenerator, stateSchema, tools: [searchDocs] }).run({ messages: [ChatMessage.fromUser("Where is state explained?")] });
  assert.deepEqual(found.docs, ["State: typed keys and merge handlers"]);
  // The schema the model saw has the query, not the injected State.
  assert.deepEqual(chatGenerator.requests[0]?.tools?.[0]?.parameters, {
    type: "object",
    properties: { query: { type: "string" } },
    required: ["query"],
    additionalProperties: false,
  });

  const toolA = new Tool({ name: "a", description: "A.", parameters: { type: "object", properties: {} }, function: () => "a" });
  const toolB = new Tool({ name: "b", description: "B.", parameters: { type: "object", properties: {} }, function: () => "b" });
  // #region tool-object
  new Tool({
    name: "close_ticket",                     // 1–64 characters of [a-zA-Z0-9_-]
    description: "Close one of the customer's tickets.",
    parameters: { type: "object", properties: { ticketId: { type: "string" }, customerId: { type: "string" } }, required: ["ticketId", "customerId"] },
    inputsFromState: { customer_id: "customerId" },       // state key → parameter; removed from the model's schema
    outputsToState: { closed: { source: "id" } },         // state key → { source?, handler? }
    outputsToString: { source: "id" },                    // { source?, handler?, rawResult? }
    usesState: false,                                     // true if the function reads or writes context.state
    function: async (args, { signal }) => store.close(args.customerId as string, args.ticketId as string, { signal }),
  });
  new Toolset([toolA, toolB], { name: "tickets" });      // a named group
  // #endregion
  const closeTicket = new Tool({
    name: "close_ticket",
    description: "Close one of the customer's tickets.",
    parameters: { type: "object", properties: { ticketId: { type: "string" }, customerId: { type: "string" } }, required: ["ticketId", "customerId"] },
    inputsFromState: { customer_id: "customerId" },
    outputsToState: { closed: { source: "id" } },
    outputsToString: { source: "id" },
    function: async (args, { signal }) => store.close(args.customerId as string, args.ticketId as string, { signal }),
  });
  const desk = new ScriptedChatGenerator([toolCallReply(["close_ticket", { ticketId: "T-1" }]), (request) => ChatMessage.fromAssistant(`Closed ${request.messages.at(-1)?.toolCallResult?.result}.`)]);
  const closed = await new Agent({ chatGenerator: desk, stateSchema: { ...supportState, closed: { type: z.string() } }, tools: [closeTicket, new Toolset([toolA, toolB], { name: "tickets" })] }).run({ messages: [ChatMessage.fromUser("Close T-1.")], customer_id: "c-42" });
  assert.equal(closed.closed, "T-1");
  assert.equal(closed.lastMessage.text, "Closed T-1.");
  assert.deepEqual(Object.keys(desk.requests[0]?.tools?.[0]?.parameters.properties as object), ["ticketId"]);

  // What codegen read from the JSDoc of SupportTools.closeTicket.
  const entry = toolSchemas.find((candidate) => candidate.owner() === SupportTools && candidate.name === "close_ticket");
  assert.equal(entry?.title, "Close a ticket");
  assert.deepEqual(entry?.annotations, { destructiveHint: false, idempotentHint: true });
  assert.deepEqual(entry?.outputSchema, {
    type: "object",
    properties: { id: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
    required: ["id", "status"],
    description: "The ticket, closed.",
  });
}
