// The README's quickstart; test/docs/guideExamples.test.ts runs it, against the openai SDK talking
// to a local server that answers in the Chat Completions wire format.
import assert from "node:assert/strict";
import { jsonReply, MockOpenAIServer } from "../../../test/helpers/mockOpenAIServer";
import "./tools.generated";
import { memoryTicketStore } from "./ticketStore";
// #region imports
import { Agent, ChatMessage } from "toolwright";
import { OpenAIChatGenerator } from "toolwright/openai";
import { SupportTools, supportState } from "./supportTools";
// #endregion

/** Runs the quickstart's agent for customer c-42: one search, then the answer. */
export async function run(): Promise<void> {
  const openai = new MockOpenAIServer();
  await openai.start();
  openai.enqueue(
    jsonReply({ toolCalls: [{ id: "call_1", name: "searchTickets", arguments: '{"query":"open"}' }] }),
    jsonReply({ text: "One ticket is open: T-1, Printer jam." }),
  );
  const saved = { key: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = "sk-local";
  process.env.OPENAI_BASE_URL = openai.baseURL;
  try {
    const store = memoryTicketStore();
    // #region run
    const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini" });   // OPENAI_API_KEY

    const agent = new Agent({ chatGenerator, tools: [new SupportTools(store)], stateSchema: supportState });
    const result = await agent.run({ messages: [ChatMessage.fromUser("Which tickets are open?")], customer_id: "c-42" });
    result.lastMessage.text;   // the answer
    result.tickets;            // Ticket[] | undefined, typed from the schema
    result.exitReason;         // "text" | "max_agent_steps" | an exit-condition tool name
    // #endregion

    assert.equal(result.lastMessage.text, "One ticket is open: T-1, Printer jam.");
    assert.deepEqual(result.tickets, [{ id: "T-1", subject: "Printer jam", status: "open" }]);
    assert.equal(result.exitReason, "text");
    // What the model was shown: customerId (filled from state) and state are not in any schema.
    const tools = (openai.requests[0]?.body as { tools: Array<{ function: { name: string; parameters: { properties: object } } }> }).tools;
    assert.deepEqual(
      tools.map((entry) => [entry.function.name, Object.keys(entry.function.parameters.properties)]),
      [["searchTickets", ["query", "limit"]], ["close_ticket", ["ticketId"]]],
    );
  } finally {
    restore("OPENAI_API_KEY", saved.key);
    restore("OPENAI_BASE_URL", saved.baseURL);
    await openai.close();
  }
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
