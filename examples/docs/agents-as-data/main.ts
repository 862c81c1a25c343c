// The code of docs/agents-as-data.md; test/docs/guideExamples.test.ts runs it. agent.yaml is the
// guide's definition, unchanged: its OpenAIChatGenerator talks to a local OpenAI server here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { jsonReply, MockOpenAIServer } from "../../../test/helpers/mockOpenAIServer";
import { DeskStore, DeskTools, latestTickets } from "./deskTools";
// #region imports
import "./tools.generated";                       // the generated module: which classes have tools
import { loadAgent } from "toolwright/yaml";      // npm i yaml
// #endregion

/** Loads the guide's agent.yaml with a registry and runs it: the model closes the customer's ticket. */
export async function run(): Promise<void> {
  const server = new MockOpenAIServer();
  await server.start();
  const env = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL };
  process.env.OPENAI_API_KEY = "sk-local";
  process.env.OPENAI_BASE_URL = server.baseURL;
  try {
    server.enqueue(
      jsonReply({ toolCalls: [{ id: "call_1", name: "close_ticket", arguments: JSON.stringify({ ticketId: "T-1" }) }] }),
      jsonReply({ text: "Your printer ticket T-1 is closed." }),
    );
    const store = new DeskStore();

    // #region load
    const agent = await loadAgent("examples/docs/agents-as-data/agent.yaml", {
      registry: { classes: { DeskTools: () => new DeskTools(store) }, handlers: { latestTickets } },
    });
    const result = await agent.run({ customer_id: "c-42", customer_name: "Ada", promptVariables: { company: "Acme", request: "Close my printer ticket." } });
    // #endregion

    assert.equal(result.exitReason, "text");
    assert.equal(result.lastMessage?.text, "Your printer ticket T-1 is closed.");
    assert.deepEqual(result.tickets, [{ id: "T-1", customerId: "c-42", status: "closed" }]);
    assert.equal(store.tickets.get("T-1")?.status, "closed");
    // The prompts are the definition's templates, rendered over the run's state and promptVariables.
    const [first, second] = server.requests.map((request) => request.body.messages as Array<{ role: string; content: string }>);
    assert.deepEqual(first!.slice(0, 2), [
      { role: "system", content: "You are the support desk of Acme, helping Ada.\n" },
      { role: "user", content: "Request from Ada: Close my printer ticket." },
    ]);
    assert.equal(second![0]!.content, first![0]!.content);
    // The definition hides close_ticket's customerId (filled from state): the model is never shown it.
    const closeTicket = (server.requests[0]!.body.tools as Array<{ function: { name: string; parameters: { properties: object } } }>).find((entry) => entry.function.name === "close_ticket");
    assert.deepEqual(Object.keys(closeTicket!.function.parameters.properties), ["ticketId"]);
    assert.equal(server.requests[0]!.headers.authorization, "Bearer sk-local");
    // toJSON of an Agent read from a definition returns that definition.
    assert.deepEqual(agent.toJSON(), parse(readFileSync("examples/docs/agents-as-data/agent.yaml", "utf8")));
  } finally {
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await server.close();
  }
}
