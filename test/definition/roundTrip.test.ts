import "../../examples/yaml-agent/tools.generated";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { Agent, type AgentRegistry, ChatMessage, type ChatGeneratorRequest, DeferredConfirmationStrategy, NeverAskPolicy, promptTemplate, type StateSchema, type ToolCall } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { agentToYaml, parseAgent } from "toolwright/yaml";
import { DeskTools, latestTickets } from "../../examples/yaml-agent/deskTools";
import { scriptedDeskModel } from "../../examples/yaml-agent/scriptedDesk";
import { Ticket, demoStore } from "../../examples/support/ticketStore";
import { notesAgent, notesInput, notesScript, notesTools, runSummary } from "../helpers/notesAgent";

const exampleYaml = readFileSync(join(__dirname, "../../examples/yaml-agent/agent.yaml"), "utf8");
const call = (id: string, toolName: string, args: Record<string, unknown>): ToolCall => ({ id, toolName, arguments: args });

/** What a model was asked, call by call: the conversation as JSON, the tools and the answer format. */
function requestsOf(model: ScriptedChatGenerator): unknown[] {
  return model.requests.map((request: ChatGeneratorRequest) => ({ messages: request.messages.map((m) => m.toJSON()), tools: request.tools, responseFormat: request.responseFormat }));
}

const deskState = {
  customer_id: { type: z.string() },
  customer_name: { type: z.string() },
  tickets: { type: z.array(Ticket), handler: latestTickets },
  closed: { type: z.array(z.string()) },
} satisfies StateSchema;

/** A support desk built in code: decorated tools, a typed state with a registered handler, templates, a strategy. */
function codeDesk(script: ChatMessage[]) {
  // The rebuilt Agent gets its own store, as another process would.
  const registry: AgentRegistry = { classes: { DeskTools: () => new DeskTools(demoStore()) }, handlers: { latestTickets } };
  const agent = new Agent({
    name: "desk",
    chatGenerator: new ScriptedChatGenerator(script),
    tools: [new DeskTools(demoStore())],
    stateSchema: deskState,
    systemPrompt: promptTemplate("You help {{ customer_name }} at {{ company }}."),
    userPrompt: promptTemplate("{{ request }}"),
    exitConditions: ["text", "escalate"],
    maxAgentSteps: 6,
    confirmationStrategies: { close_ticket: new DeferredConfirmationStrategy({ policy: new NeverAskPolicy() }) },
    outputSchema: z.object({ summary: z.string() }),
  });
  return { agent, registry };
}

const deskScript = () => [
  ChatMessage.fromAssistant(undefined, { toolCalls: [call("c1", "search_tickets", { query: "printer" })] }),
  ChatMessage.fromAssistant(undefined, { toolCalls: [call("c2", "close_ticket", { ticketId: "T-1", customerId: "c-42" })] }),
  ChatMessage.fromAssistant(JSON.stringify({ summary: "Closed T-1." })),
];
const deskInput = { customer_id: "c-42", customer_name: "Ada", promptVariables: { company: "Acme", request: "Close my printer ticket." } };

describe("agents as data: round trips", () => {
  test("code → JSON → Agent: the rebuilt Agent sends the model the same requests and ends in the same state", async () => {
    const { agent, registry } = codeDesk(deskScript());
    const definition = agent.toJSON({ registry });
    // Through text, as a definition travels.
    const rebuilt = Agent.fromJSON(JSON.parse(JSON.stringify(definition)), { registry, stateSchema: deskState });
    const original = await agent.run(deskInput);
    const again = await rebuilt.run(deskInput);
    expect(again.exitReason).toBe("text");
    expect(again.output).toEqual({ summary: "Closed T-1." });
    expect({ messages: again.messages.map((m) => m.toJSON()), tickets: again.tickets, closed: again.closed }).toEqual({
      messages: original.messages.map((m) => m.toJSON()),
      tickets: original.tickets,
      closed: original.closed,
    });
    expect(again.messages.at(-2)!.toolCallResult!.result).toBe('{"ticket":{"id":"T-1","customerId":"c-42","subject":"Printer offline","status":"closed"}}');
    // The definition names everything that is code; the generator's script travels as messages.
    expect(definition).toMatchObject({
      version: 1,
      name: "desk",
      chatGenerator: { type: "ScriptedChatGenerator" },
      tools: [{ class: "DeskTools" }],
      systemPrompt: "You help {{ customer_name }} at {{ company }}.",
      userPrompt: "{{ request }}",
      stateSchema: { tickets: { handler: "latestTickets" }, closed: { type: { type: "array", items: { type: "string" } } } },
      exitConditions: ["text", "escalate"],
      maxAgentSteps: 6,
      confirmationStrategies: { close_ticket: { strategy: "deferred", policy: "neverAsk" } },
      outputSchema: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"] },
    });
    // Rebuilt again from the rebuilt Agent: the same definition.
    expect(Agent.fromJSON(rebuilt.toJSON(), { registry }).toJSON()).toEqual(definition);
  });

  test("the same requests, call by call, on a code Agent with Tool objects and a plain prompt", async () => {
    const log: never[] = [];
    const { agent, chatGenerator } = notesAgent({ script: notesScript, exitConditions: ["text", "add_note"] });
    const tools = notesTools(log);
    const registry: AgentRegistry = { tools: { search: tools[0]!, add_note: tools[1]! } };
    const definition = agent.toJSON({ registry: { tools: { search: agent.tools[0]!, add_note: agent.tools[1]! } } });
    expect(definition.tools).toEqual([{ tool: "search" }, { tool: "add_note" }]);
    expect(definition.systemPrompt).toBe("You keep notes.");
    const rebuilt = Agent.fromJSON(definition, { registry });
    const rebuiltModel = new ScriptedChatGenerator(notesScript);
    const first = await agent.run(notesInput());
    const second = await Agent.fromJSON(definition, { registry, chatGenerator: rebuiltModel }).run(notesInput());
    expect(runSummary(second as never)).toEqual(runSummary(first));
    expect(requestsOf(rebuiltModel)).toEqual(requestsOf(chatGenerator));
    expect(rebuilt.tools.map((t) => t.name)).toEqual(["search", "add_note"]);
  });

  test("a literal system prompt with template syntax survives as text", async () => {
    const text = "Answer in the form {{ name }} or {% raw %}, and {# never #} evaluate it.";
    const literal = new Agent({ chatGenerator: new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]), systemPrompt: text });
    const json = literal.toJSON();
    expect(json.systemPrompt).not.toBe(text);
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("ok")]);
    const result = await Agent.fromJSON(json, { chatGenerator: model }).run({ messages: [ChatMessage.fromUser("hi")] });
    expect(result.messages[0]!.text).toBe(text);
  });

  test("YAML → Agent → JSON → YAML: the example definition reads back as the same data, and runs the same", async () => {
    const registry = (): AgentRegistry => {
      const store = demoStore();
      return { classes: { DeskTools: () => new DeskTools(store) }, handlers: { latestTickets } };
    };
    const input = { customer_id: "c-42", customer_name: "Ada", promptVariables: { company: "Acme Printers", request: "Close the printer ticket, escalate the invoice." } };
    const firstModel = scriptedDeskModel();
    const agent = parseAgent(exampleYaml, { file: "agent.yaml", registry: registry(), chatGenerator: firstModel });
    const json = agent.toJSON();
    const { $schema: _editorHint, ...data } = parse(exampleYaml) as Record<string, unknown>;
    expect(json).toEqual(data);
    const written = agentToYaml(agent);
    expect(parse(written)).toEqual(json);
    const secondModel = scriptedDeskModel();
    const reread = parseAgent(written, { file: "written.yaml", registry: registry(), chatGenerator: secondModel });
    expect(agentToYaml(reread)).toBe(written);
    const [a, b] = [await agent.run(input), await reread.run(input)];
    expect(b.exitReason).toBe("escalate");
    expect({ tickets: b.tickets, closed: b.closed, escalation: b.escalation, messages: b.messages.map((m) => m.toJSON()) }).toEqual({
      tickets: a.tickets,
      closed: a.closed,
      escalation: a.escalation,
      messages: a.messages.map((m) => m.toJSON()),
    });
    // The hidden parameter stays hidden, and close_ticket's customer now comes from state too.
    expect(reread.tools.map((t) => [t.name, Object.keys(t.parameters.properties ?? {})])).toEqual([
      ["search_tickets", ["query", "limit"]],
      ["close_ticket", ["ticketId"]],
      ["escalate", ["ticketId", "reason"]],
    ]);
  });
});
