// The code of docs/typed-output-and-composition.md; test/docs/guideExamples.test.ts runs it.
import assert from "node:assert/strict";
import { ChatMessage, Tool } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import "./tools.generated";
import { LibraryTools } from "./libraryTools";
// #region imports
import { z } from "zod";
import { Agent } from "toolwright";
// #endregion

const lookup = new Tool({ name: "list_tickets", description: "The customer's open tickets.", parameters: { type: "object", properties: {} }, function: () => ["T-1", "T-2"] });

/** Typed output, a system prompt from state, and agents as tools of a coordinator. */
export async function run(): Promise<void> {
  await typedOutput();
  await promptFromState();
  await composition();
}

async function typedOutput(): Promise<void> {
  const chatGenerator = new ScriptedChatGenerator([toolCallReply(["list_tickets", {}]), ChatMessage.fromAssistant('{"tickets":["T-1","T-2"],"closed":null}')]);
  const tools = [lookup];
  const stateSchema = { customer_id: { type: z.string() } };
  const messages = [ChatMessage.fromUser("Which tickets are open?")];
  // #region typed-output
  const Answer = z.object({
    tickets: z.array(z.string()).describe("Ids of the open tickets."),
    closed: z.string().nullable(),
    note: z.string().optional(),
  });
  const agent = new Agent({ chatGenerator, tools, stateSchema, outputSchema: Answer });

  const result = await agent.run({ messages, customer_id: "c-42" });
  if (result.exitReason === "text") result.output; // { tickets: string[]; closed: string | null; note?: string }
  // #endregion
  assert.equal(result.exitReason, "text");
  assert.deepEqual(result.output, { tickets: ["T-1", "T-2"], closed: null });
  // The model was asked for the schema's JSON: a response format on the request.
  assert.notEqual(chatGenerator.requests[1]?.responseFormat, undefined);
}

async function promptFromState(): Promise<void> {
  const chatGenerator = new ScriptedChatGenerator([(request) => ChatMessage.fromAssistant(`Told: ${request.messages[0]?.text}`)]);
  const Customer = z.object({ name: z.string(), plan: z.enum(["free", "pro"]) });
  const profiles = { get: async (_id: string): Promise<z.infer<typeof Customer>> => ({ name: "Ada", plan: "pro" }) };
  const messages = [ChatMessage.fromUser("Can I export my data?")];
  const id = "c-42";
  // #region system-prompt
  const agent = new Agent({
    chatGenerator, stateSchema: { customer: { type: Customer } },
    systemPrompt: ({ customer }, { runId }) => `You help ${customer?.name} (${customer?.plan} plan). Run ${runId}.`,
  });
  await agent.run({ messages, customer: await profiles.get(id) });
  // #endregion
  const system = chatGenerator.requests[0]?.messages[0];
  assert.equal(system?.role, "system");
  assert.match(system?.text ?? "", /^You help Ada \(pro plan\)\. Run [0-9a-f-]{36}\.$/);
}

async function composition(): Promise<void> {
  const researchState = { audience: { type: z.string() }, sources: { type: z.array(z.string()) } };
  const teamState = { audience: { type: z.string() }, sources: { type: z.array(z.string()) } };
  const Findings = z.object({ facts: z.array(z.string()) });
  // One scripted model for the three agents, answering each request by who is asking.
  const chatGenerator = new ScriptedChatGenerator([
    toolCallReply(["research", { input: "Why does water boil at 100 °C?" }]), // the coordinator
    toolCallReply(["search", { query: "water" }]), // the researcher
    ChatMessage.fromAssistant('{"facts":["water boils at 100 °C at sea level"]}'), // the researcher's answer
    toolCallReply(["write", { input: "Write it up for kids." }]), // the coordinator
    ChatMessage.fromAssistant("Published: Why water boils."), // the writer
    ChatMessage.fromAssistant("Done: researched and published."), // the coordinator
  ]);
  const writer = new Agent({ name: "writer", chatGenerator });
  // #region composition
  const researcher = new Agent({ name: "researcher", chatGenerator, tools: [new LibraryTools()], stateSchema: researchState, outputSchema: Findings });
  const coordinator = new Agent({
    chatGenerator,
    stateSchema: teamState,
    tools: [
      researcher.asTool({
        name: "research",
        description: "Finds facts and sources on a topic.",
        inputsFromState: { audience: "audience" },             // coordinator's key → researcher's key
        outputsToState: { sources: { source: "sources" } },    // coordinator's key ← researcher's key, "output" or "text"
      }),
      writer.asTool({ name: "write", description: "Writes and publishes an article." }),
    ],
  });
  // #endregion
  const result = await coordinator.run({ messages: [ChatMessage.fromUser("An article on boiling water for kids.")], audience: "kids" });
  assert.equal(result.lastMessage.text, "Done: researched and published.");
  assert.deepEqual(result.sources, ["physics-handbook"]); // the researcher's state key, mapped back by outputsToState
  const researchResult = result.messages.find((message) => message.toolCallResult?.origin.toolName === "research")?.toolCallResult?.result;
  assert.equal(researchResult, '{"facts":["water boils at 100 °C at sea level"]}');
}
