import "../../examples/yaml-agent/tools.generated";
import { z } from "zod";
import { Agent, type AgentFromJSONOptions, type AgentRegistry, BlockingConfirmationStrategy, ConfigurationError, DefinitionError, Tool, Toolset } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { DeskTools, latestTickets } from "../../examples/yaml-agent/deskTools";
import { demoStore } from "../../examples/support/ticketStore";

// Every case below changes one thing in a definition that `Agent.fromJSON` accepts (see the first
// tests), so each error is about that one change.

const scripted = { type: "ScriptedChatGenerator", options: { script: [] } };
const deskState = { customer_id: { type: { type: "string" } }, tickets: { type: { type: "array", items: { type: "object" } } } };
const topLevelKeys =
  "$schema, version, name, chatGenerator, tools, systemPrompt, userPrompt, stateSchema, outputSchema, exitConditions, maxAgentSteps, maxOutputRetries, toolConcurrency, toolTimeoutMs, maxToolResultChars, raiseOnToolInvocationFailure, confirmationStrategies, guardrails, budget, compaction, snapshotKey";
const toolReference = "must be one tool reference: { class: <a class with @tool methods> }, { tool: <a tool name> } or { toolset: <a toolset name> }";

/** A definition with a scripted model and `extra`. */
function definition(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { version: 1, chatGenerator: scripted, ...extra };
}

/** A definition with the DeskTools class (settings from `tools`) and the desk's state keys. */
function deskDefinition(tools: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return definition({ stateSchema: deskState, tools: [{ class: "DeskTools", ...tools }], ...extra });
}

function deskRegistry(extra: AgentRegistry = {}): AgentRegistry {
  return { classes: { DeskTools: () => new DeskTools(demoStore()) }, handlers: { latestTickets }, ...extra };
}

const escalateTool = new Tool({
  name: "escalate",
  description: "Hand the conversation to a person.",
  parameters: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  function: () => "escalated",
});

/** The error `build` throws; fails the test when it throws nothing. */
function thrownBy(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw, but the definition was accepted");
}

/** Asserts that `Agent.fromJSON(data, options)` throws a DefinitionError with exactly this path and message. */
function expectDefinitionError(data: unknown, options: AgentFromJSONOptions | undefined, path: readonly (string | number)[], message: string): DefinitionError {
  const error = thrownBy(() => Agent.fromJSON(data, options));
  if (!(error instanceof DefinitionError)) throw error;
  expect({ path: error.path, message: error.message }).toEqual({ path, message });
  expect(error.location).toBeUndefined();
  // The message is the path, then the reason.
  expect(message.endsWith(`: ${error.reason}`)).toBe(true);
  return error;
}

/** Asserts that `Agent.fromJSON(data, options)` throws a ConfigurationError (not a DefinitionError: the code is at fault) with exactly this message. */
function expectConfigurationError(data: unknown, options: AgentFromJSONOptions, subject: string, message: string): void {
  const error = thrownBy(() => Agent.fromJSON(data, options));
  if (!(error instanceof ConfigurationError) || error instanceof DefinitionError) throw error;
  expect({ subject: error.subject, message: error.message }).toEqual({ subject, message });
}

const saved = { key: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL };
beforeEach(() => {
  process.env.OPENAI_API_KEY = "sk-test-definition-errors";
  delete process.env.OPENAI_BASE_URL;
});
afterEach(() => {
  if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved.key;
  if (saved.baseURL === undefined) delete process.env.OPENAI_BASE_URL;
  else process.env.OPENAI_BASE_URL = saved.baseURL;
});

describe("Agent.fromJSON", () => {
  describe("the definitions the cases start from", () => {
    it("accepts the minimal definition and the desk definition", () => {
      expect(Agent.fromJSON(definition())).toBeInstanceOf(Agent);
      expect(Agent.fromJSON(deskDefinition(), { registry: deskRegistry() }).tools.map((tool) => tool.name)).toEqual(["search_tickets", "close_ticket", "escalate"]);
      expect(Agent.fromJSON(definition({ tools: [{ tool: "escalate" }] }), { registry: { tools: { escalate: escalateTool } } })).toBeInstanceOf(Agent);
    });
  });

  describe("the format", () => {
    it("refuses data that is not an object", () => {
      expectDefinitionError("version: 1", undefined, [], '(definition): must be a mapping (an agent definition), got string "version: 1".');
      expectDefinitionError([], undefined, [], "(definition): must be a mapping (an agent definition), got an array.");
      expectDefinitionError(null, undefined, [], "(definition): must be a mapping (an agent definition), got null.");
    });

    it("refuses a definition without a version", () => {
      expectDefinitionError({ chatGenerator: scripted }, undefined, ["version"], "version: must be 1 (the only version of the format), got undefined.");
    });

    it("refuses another version", () => {
      expectDefinitionError(definition({ version: 2 }), undefined, ["version"], "version: must be 1 (the only version of the format), got number 2.");
      expectDefinitionError(definition({ version: "1" }), undefined, ["version"], 'version: must be 1 (the only version of the format), got string "1".');
    });

    it("refuses a definition without a chat generator", () => {
      expectDefinitionError({ version: 1 }, undefined, ["chatGenerator"], "chatGenerator: is missing: it must be { type, options? }.");
      expectDefinitionError(
        { version: 1, chatGenerator: {} },
        undefined,
        ["chatGenerator", "type"],
        "chatGenerator.type: is missing: it must be a name of 1 to 200 characters (a chat generator type: OpenAIChatGenerator, OpenAIResponsesChatGenerator, FallbackChatGenerator, ScriptedChatGenerator or a registry.chatGenerators name).",
      );
    });

    it("names the closest key of an unknown top-level key", () => {
      expectDefinitionError(definition({ sytemPrompt: "Hello." }), undefined, ["sytemPrompt"], `sytemPrompt: is not a key of an agent definition; did you mean 'systemPrompt'? Keys: ${topLevelKeys}.`);
      expectDefinitionError(definition({ max_agent_steps: 3 }), undefined, ["max_agent_steps"], `max_agent_steps: is not a key of an agent definition; did you mean 'maxAgentSteps'? Keys: ${topLevelKeys}.`);
    });

    it("lists the keys for an unknown key with no close match", () => {
      expectDefinitionError(definition({ banana: 3 }), undefined, ["banana"], `banana: is not a key of an agent definition. Keys: ${topLevelKeys}.`);
    });

    it("names the closest key of an unknown key in a nested mapping", () => {
      expectDefinitionError(definition({ stateSchema: { note: { typ: { type: "string" } } } }), undefined, ["stateSchema", "note", "typ"], "stateSchema.note.typ: is not a key of this mapping; did you mean 'type'? Keys: type, handler.");
      expectDefinitionError(
        deskDefinition({ tools: { escalate: { inputFromState: {} } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "escalate", "inputFromState"],
        "tools[0].tools.escalate.inputFromState: is not a key of this mapping; did you mean 'inputsFromState'? Keys: description, inputsFromState, outputsToState, outputsToString.",
      );
      expectDefinitionError({ version: 1, chatGenerator: { type: "ScriptedChatGenerator", option: {} } }, undefined, ["chatGenerator", "option"], "chatGenerator.option: is not a key of this mapping; did you mean 'options'? Keys: type, options.");
    });

    // A bug the properties found, now fixed: an unknown key directly on a tools entry gets no suggestion and an empty key list
    // ("Keys: ."), because readDefinition looks the keys up on the union of the three reference
    // shapes instead of the shape the entry has.
    it("lists the keys of a tool reference for an unknown key on it", () => {
      const error = thrownBy(() => Agent.fromJSON(definition({ tools: [{ class: "DeskTools", inclde: ["escalate"] }] }), { registry: deskRegistry() })) as DefinitionError;
      expect(error.path).toEqual(["tools", 0, "inclde"]);
      expect(error.message).toContain("did you mean 'include'?");
      expect(error.message).toContain("Keys: class, file, include, tools.");
    });

    it("refuses maxAgentSteps that is not a whole number from 1", () => {
      const rule = "maxAgentSteps: must be a whole number from 1 to 100000 (the most model calls of a run)";
      expectDefinitionError(definition({ maxAgentSteps: 0 }), undefined, ["maxAgentSteps"], `${rule}, got number 0.`);
      expectDefinitionError(definition({ maxAgentSteps: 1.5 }), undefined, ["maxAgentSteps"], `${rule}, got number 1.5.`);
      expectDefinitionError(definition({ maxAgentSteps: "3" }), undefined, ["maxAgentSteps"], `${rule}, got string "3".`);
    });

    it("refuses an empty list of exit conditions", () => {
      expectDefinitionError(definition({ exitConditions: [] }), undefined, ["exitConditions"], 'exitConditions: must list at least one exit condition ("text" or a tool name), got an array.');
    });

    it("refuses tools that are not a list", () => {
      expectDefinitionError(definition({ tools: { class: "DeskTools" } }), undefined, ["tools"], "tools: must be a list of tool references, got an object.");
    });

    it("refuses an empty name", () => {
      expectDefinitionError(definition({ name: "" }), undefined, ["name"], 'name: must be a name of 1 to 200 characters (the Agent\'s name in traces), got string "".');
    });

    it("refuses a '__proto__' key at the top and deep inside", () => {
      expectDefinitionError(JSON.parse('{"version":1,"chatGenerator":{"type":"ScriptedChatGenerator"},"__proto__":{"polluted":true}}'), undefined, ["__proto__"], "__proto__: is a '__proto__' key, which a definition may not have.");
      expectDefinitionError(
        JSON.parse('{"version":1,"chatGenerator":{"type":"ScriptedChatGenerator"},"tools":[{"class":"DeskTools","tools":{"escalate":{"outputsToState":{"__proto__":{}}}}}]}'),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "escalate", "outputsToState", "__proto__"],
        "tools[0].tools.escalate.outputsToState.__proto__: is a '__proto__' key, which a definition may not have.",
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("refuses nesting deeper than the limit", () => {
      const root: Record<string, unknown> = {};
      let here = root;
      for (let level = 0; level < 70; level++) here = here.a = {};
      expectDefinitionError(definition({ outputSchema: root }), undefined, ["outputSchema", ...Array<string>(63).fill("a")], `outputSchema${".a".repeat(63)}: nests deeper than 64 levels, the limit of a definition.`);
    });
  });

  describe("tools", () => {
    it("refuses a tools entry with none of class, tool and toolset", () => {
      expectDefinitionError(definition({ tools: [{}] }), undefined, ["tools", 0], `tools[0]: ${toolReference}, got keys none.`);
      expectDefinitionError(definition({ tools: [{ include: ["escalate"] }] }), undefined, ["tools", 0], `tools[0]: ${toolReference}, got keys 'include'.`);
      expectDefinitionError(definition({ tools: ["DeskTools"] }), undefined, ["tools", 0], `tools[0]: ${toolReference}, got string "DeskTools".`);
    });

    it("refuses a tools entry with two of class, tool and toolset", () => {
      expectDefinitionError(definition({ tools: [{ class: "DeskTools", tool: "escalate" }] }), undefined, ["tools", 0], `tools[0]: ${toolReference}, got 'class' and 'tool'.`);
    });

    it("refuses a class no generated module describes, listing the generated classes", () => {
      expectDefinitionError(
        definition({ tools: [{ class: "DeskTool" }] }),
        { registry: deskRegistry() },
        ["tools", 0, "class"],
        "tools[0].class: names class 'DeskTool', which no imported generated module describes; name a class with @tool methods, run toolwright codegen, and import the generated module first. Classes: DeskTools (examples/yaml-agent/deskTools.ts).",
      );
    });

    it("refuses a class with instance tools that registry.classes cannot make", () => {
      expectDefinitionError(
        definition({ tools: [{ class: "DeskTools" }] }),
        { registry: { classes: { SupportTools: () => ({}) } } },
        ["tools", 0, "class"],
        "tools[0].class: names class 'DeskTools', whose tools are instance methods, but registry.classes has no 'DeskTools'; add DeskTools: () => new DeskTools(...) to registry.classes. Registered: SupportTools.",
      );
    });

    it("reports a registry.classes factory that throws at the class, with its error as cause", () => {
      const cause = new Error("the ticket store is offline");
      const error = expectDefinitionError(
        definition({ tools: [{ class: "DeskTools" }] }),
        {
          registry: {
            classes: {
              DeskTools: () => {
                throw cause;
              },
            },
          },
        },
        ["tools", 0, "class"],
        "tools[0].class: could not be made: registry.classes.DeskTools threw the ticket store is offline",
      );
      expect(error.cause).toBe(cause);
    });

    it("refuses a file the class is not declared in", () => {
      expectDefinitionError(
        definition({ tools: [{ class: "DeskTools", file: "examples/support/deskTools.ts" }] }),
        { registry: deskRegistry() },
        ["tools", 0, "file"],
        "tools[0].file: is 'examples/support/deskTools.ts', but class DeskTools is declared in examples/yaml-agent/deskTools.ts; fix the file, or leave it out.",
      );
    });

    it("refuses an unknown tool in include, listing the class's tools", () => {
      expectDefinitionError(
        deskDefinition({ include: ["escalate", "refund"] }),
        { registry: deskRegistry() },
        ["tools", 0, "include", 1],
        "tools[0].include[1]: names tool 'refund', which class DeskTools does not have; its tools: search_tickets, close_ticket, escalate.",
      );
    });

    it("refuses settings for a tool the class does not have", () => {
      expectDefinitionError(
        deskDefinition({ tools: { refund: { description: "Refund a ticket." } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "refund"],
        "tools[0].tools.refund: names tool 'refund', which class DeskTools does not have; its tools: search_tickets, close_ticket, escalate.",
      );
    });

    it("refuses settings for a tool include leaves out", () => {
      expectDefinitionError(
        deskDefinition({ include: ["escalate"], tools: { close_ticket: { description: "Close a ticket." } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "close_ticket"],
        "tools[0].tools.close_ticket: has settings for tool 'close_ticket', which include leaves out; add it to include, or remove its settings.",
      );
    });

    it("refuses a named tool that is neither registered nor generated, listing both", () => {
      expectDefinitionError(
        definition({ tools: [{ tool: "refund" }] }),
        { registry: { tools: { escalate: escalateTool } } },
        ["tools", 0, "tool"],
        "tools[0].tool: names tool 'refund', which is neither in registry.tools nor a defineTool function of the imported generated modules; register the Tool (registry.tools.refund) or fix the name. Registered: escalate; generated functions: none.",
      );
    });

    it("refuses a toolset that is not registered", () => {
      expectDefinitionError(
        definition({ tools: [{ toolset: "admin" }] }),
        { registry: { toolsets: { support: new Toolset([escalateTool], { name: "support" }) } } },
        ["tools", 0, "toolset"],
        "tools[0].toolset: names toolset 'admin', which registry.toolsets does not have; register it or fix the name. Registered: support.",
      );
    });

    it("refuses inputsFromState naming a parameter the tool does not have", () => {
      expectDefinitionError(
        deskDefinition({ tools: { escalate: { inputsFromState: { customer_id: "customer" } } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "escalate", "inputsFromState"],
        "tools[0].tools.escalate.inputsFromState: Tool 'escalate' fills 'customer' from state, but 'customer' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: ticketId, reason.",
      );
      expectDefinitionError(
        definition({ stateSchema: deskState, tools: [{ tool: "escalate", inputsFromState: { customer_id: "customer" } }] }),
        { registry: { tools: { escalate: escalateTool } } },
        ["tools", 0, "inputsFromState"],
        "tools[0].inputsFromState: Tool 'escalate' fills 'customer' from state, but 'customer' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: reason.",
      );
    });

    it("refuses inputsFromState that leaves a parameter the code hides to the model", () => {
      const unhidden =
        "leaves parameter 'customerId' of tool 'search_tickets' unfilled, which the code fills from state key 'customer_id' and hides from the model; a definition cannot show the model a hidden parameter, so map a state key to it (customer_id: customerId).";
      expectDefinitionError(deskDefinition({ tools: { search_tickets: { inputsFromState: {} } } }), { registry: deskRegistry() }, ["tools", 0, "tools", "search_tickets", "inputsFromState"], `tools[0].tools.search_tickets.inputsFromState: ${unhidden}`);
      expectDefinitionError(
        deskDefinition({ tools: { search_tickets: { inputsFromState: { customer_id: "query" } } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "search_tickets", "inputsFromState"],
        `tools[0].tools.search_tickets.inputsFromState: ${unhidden}`,
      );
    });

    it("refuses inputsFromState reading a state key the schema does not have", () => {
      expectDefinitionError(
        deskDefinition({ tools: { close_ticket: { inputsFromState: { customer: "customerId" } } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "close_ticket", "inputsFromState"],
        "tools[0].tools.close_ticket.inputsFromState: Tool 'close_ticket' reads state key 'customer' through inputsFromState, but the Agent's stateSchema has no such key; add 'customer' to stateSchema or fix the key. State keys: customer_id, tickets, messages. (DeskTools.closeTicket (examples/yaml-agent/deskTools.ts:29:3))",
      );
    });

    it("refuses a class whose code reads a state key the definition's schema does not have, at the reference", () => {
      expectDefinitionError(
        definition({ tools: [{ class: "DeskTools" }] }),
        { registry: deskRegistry() },
        ["tools", 0],
        "tools[0]: Tool 'search_tickets' reads state key 'customer_id' through inputsFromState, but the Agent's stateSchema has no such key; add 'customer_id' to stateSchema or fix the key. State keys: messages. (DeskTools.searchTickets (examples/yaml-agent/deskTools.ts:19:3))",
      );
    });

    it("refuses outputsToState writing a state key the schema does not have", () => {
      expectDefinitionError(
        deskDefinition({ tools: { escalate: { outputsToState: { escalation: {} } } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "escalate", "outputsToState"],
        "tools[0].tools.escalate.outputsToState: Tool 'escalate' writes state key 'escalation' through outputsToState, but the Agent's stateSchema has no such key; add 'escalation' to stateSchema or fix the key. State keys: customer_id, tickets, messages. (DeskTools.escalate (examples/yaml-agent/deskTools.ts:39:3))",
      );
      expectDefinitionError(
        definition({ stateSchema: deskState, tools: [{ tool: "escalate", outputsToState: { escalation: {} } }] }),
        { registry: { tools: { escalate: escalateTool } } },
        ["tools", 0, "outputsToState"],
        "tools[0].outputsToState: Tool 'escalate' writes state key 'escalation' through outputsToState, but the Agent's stateSchema has no such key; add 'escalation' to stateSchema or fix the key. State keys: customer_id, tickets, messages.",
      );
    });

    it("refuses inputsFromState filling a parameter from a state key of another type", () => {
      expectDefinitionError(
        definition({ stateSchema: { ...deskState, customer_no: { type: { type: "integer" } } }, tools: [{ class: "DeskTools", tools: { close_ticket: { inputsFromState: { customer_no: "customerId" } } } }] }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "close_ticket", "inputsFromState"],
        "tools[0].tools.close_ticket.inputsFromState: Tool 'close_ticket' fills parameter 'customerId' (a string) from state key 'customer_no', which holds an integer; map a state key of the parameter's type, or change the parameter's type. (DeskTools.closeTicket (examples/yaml-agent/deskTools.ts:29:3))",
      );
    });

    it("refuses an unknown handler in outputsToState and outputsToString, listing the handlers", () => {
      expectDefinitionError(
        deskDefinition({ tools: { search_tickets: { outputsToState: { tickets: { source: "tickets", handler: "merge-lists" } } } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "search_tickets", "outputsToState", "tickets", "handler"],
        "tools[0].tools.search_tickets.outputsToState.tickets.handler: names handler 'merge-lists', which is neither built in nor in registry.handlers; register the function (registry.handlers.<name>) or use one of: mergeLists, replaceValues, latestTickets.",
      );
      expectDefinitionError(
        deskDefinition({ tools: { search_tickets: { outputsToString: { handler: "ticketList" } } } }),
        { registry: deskRegistry() },
        ["tools", 0, "tools", "search_tickets", "outputsToString", "handler"],
        "tools[0].tools.search_tickets.outputsToString.handler: names handler 'ticketList', which is neither built in nor in registry.handlers; register the function (registry.handlers.ticketList) or use one of: mergeLists, replaceValues, latestTickets.",
      );
    });

    it("refuses two tools of the same name from two references", () => {
      expectDefinitionError(
        definition({ stateSchema: deskState, tools: [{ class: "DeskTools" }, { tool: "escalate" }] }),
        { registry: deskRegistry({ tools: { escalate: escalateTool } }) },
        ["tools"],
        "tools: Agent has two tools named 'escalate': DeskTools.escalate (examples/yaml-agent/deskTools.ts:39:3) and Tool 'escalate'; tool names must be unique, so rename one (the name option of @tool or Tool).",
      );
      expectDefinitionError(
        definition({ stateSchema: deskState, tools: [{ class: "DeskTools" }, { class: "DeskTools", include: ["search_tickets"] }] }),
        { registry: deskRegistry() },
        ["tools"],
        "tools: Agent has two tools named 'search_tickets': DeskTools.searchTickets (examples/yaml-agent/deskTools.ts:19:3) and DeskTools.searchTickets (examples/yaml-agent/deskTools.ts:19:3); tool names must be unique, so rename one (the name option of @tool or Tool).",
      );
    });
  });

  describe("state", () => {
    it("refuses an unknown handler for a state key, listing the handlers", () => {
      expectDefinitionError(
        definition({ stateSchema: { tickets: { type: { type: "array" }, handler: "latestTicket" } } }),
        { registry: deskRegistry() },
        ["stateSchema", "tickets", "handler"],
        "stateSchema.tickets.handler: names handler 'latestTicket', which is neither built in nor in registry.handlers; register the function (registry.handlers.latestTicket) or use one of: mergeLists, replaceValues, latestTickets.",
      );
    });

    it("refuses a handler name inherited from Object.prototype", () => {
      expectDefinitionError(
        definition({ stateSchema: { tickets: { type: { type: "array" }, handler: "toString" } } }),
        { registry: deskRegistry() },
        ["stateSchema", "tickets", "handler"],
        "stateSchema.tickets.handler: names handler 'toString', which is neither built in nor in registry.handlers; register the function (registry.handlers.toString) or use one of: mergeLists, replaceValues, latestTickets.",
      );
    });

    it("refuses a type that is not a valid JSON Schema", () => {
      expectDefinitionError(
        definition({ stateSchema: { note: { type: { type: "strin" } } } }),
        undefined,
        ["stateSchema", "note", "type"],
        "stateSchema.note.type: is not a valid JSON Schema (draft 2020-12): schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf.",
      );
      expectDefinitionError(definition({ stateSchema: { note: { type: "string" } } }), undefined, ["stateSchema", "note", "type"], 'stateSchema.note.type: must be a JSON Schema object (every value of the key must match it), got string "string".');
    });

    it("refuses a type for messages", () => {
      expectDefinitionError(
        definition({ stateSchema: { messages: { type: { type: "array" } } } }),
        undefined,
        ["stateSchema", "messages", "type"],
        "stateSchema.messages.type: is not allowed: 'messages' always holds the conversation (a list of ChatMessage); give it only a handler, or leave it out.",
      );
    });

    it("refuses a state key without a type", () => {
      expectDefinitionError(
        definition({ stateSchema: { note: { handler: "replaceValues" } } }),
        undefined,
        ["stateSchema", "note", "type"],
        "stateSchema.note.type: is missing: every state key needs a JSON Schema type, e.g. { type: string } or { type: array, items: { type: string } }.",
      );
      expectDefinitionError(definition({ stateSchema: { note: null } }), undefined, ["stateSchema", "note"], "stateSchema.note: must be { type: <JSON Schema>, handler? }, got null.");
    });

    it("refuses a state key the Agent reserves", () => {
      expectDefinitionError(
        definition({ stateSchema: { usage: { type: { type: "object" } } } }),
        undefined,
        ["stateSchema", "usage"],
        "stateSchema.usage: State key 'usage' is reserved by the Agent for run options and results; rename the key. Reserved: lastMessage, exitReason, stepCount, usage, systemPrompt, tools, generationKwargs, streamingCallback, signal, snapshot, breakpoint, decisions, confirmationContext, runId, onCheckpoint, hooks, middleware, outputSchema, promptVariables, stateUpdates, conversation, pendingConfirmations, stopped, output.",
      );
    });
  });

  describe("exit conditions and confirmation", () => {
    const withEscalate = { registry: { tools: { escalate: escalateTool } } };

    it("refuses an exit condition that is not a tool, listing the valid ones", () => {
      expectDefinitionError(
        definition({ tools: [{ tool: "escalate" }], exitConditions: ["text", "escalated"] }),
        withEscalate,
        ["exitConditions", 1],
        'exitConditions[1]: is \'escalated\', which is neither "text" nor the name of one of the Agent\'s tools. Valid exit conditions: text, escalate.',
      );
    });

    it("refuses a confirmation strategy for a tool the Agent does not have", () => {
      expectDefinitionError(
        definition({ tools: [{ tool: "escalate" }], confirmationStrategies: { refund: { strategy: "deferred" } } }),
        withEscalate,
        ["confirmationStrategies", "refund"],
        'confirmationStrategies.refund: is a confirmation strategy for \'refund\', which is not one of the Agent\'s tools; use a tool name or "*". Tools: escalate.',
      );
    });

    it("refuses an unknown strategy", () => {
      expectDefinitionError(
        definition({ tools: [{ tool: "escalate" }], confirmationStrategies: { escalate: { strategy: "blocking" } } }),
        withEscalate,
        ["confirmationStrategies", "escalate", "strategy"],
        "confirmationStrategies.escalate.strategy: names strategy 'blocking', which is neither 'deferred' nor in registry.confirmationStrategies; register it (a BlockingConfirmationStrategy asks through code) or use deferred. Registered: none.",
      );
    });

    it("refuses a policy on a registered strategy", () => {
      const ask = new BlockingConfirmationStrategy({ ask: async () => ({ action: "confirm" }) });
      expectDefinitionError(
        definition({ tools: [{ tool: "escalate" }], confirmationStrategies: { escalate: { strategy: "ask", policy: "askOnce" } } }),
        { registry: { tools: { escalate: escalateTool }, confirmationStrategies: { ask } } },
        ["confirmationStrategies", "escalate", "policy"],
        "confirmationStrategies.escalate.policy: applies only to the deferred strategy; registered strategy 'ask' has its own policy, so remove it.",
      );
    });

    it("refuses an unknown policy", () => {
      expectDefinitionError(
        definition({ tools: [{ tool: "escalate" }], confirmationStrategies: { "*": { strategy: "deferred", policy: "askTwice" } } }),
        withEscalate,
        ["confirmationStrategies", "*", "policy"],
        'confirmationStrategies["*"].policy: names policy \'askTwice\', which is neither built in (alwaysAsk, neverAsk, askOnce) nor in registry.confirmationPolicies; register it or fix the name.',
      );
    });
  });

  describe("prompts and output", () => {
    it("refuses an outputSchema that does not describe an object", () => {
      expectDefinitionError(definition({ outputSchema: { type: "string" } }), undefined, ["outputSchema"], "outputSchema: must describe an object ({ type: object, properties: {...} }): the final answer is a JSON object.");
      expectDefinitionError(definition({ outputSchema: "string" }), undefined, ["outputSchema"], 'outputSchema: must be a JSON Schema object (the final answer\'s shape, an object), got string "string".');
    });

    it("refuses a systemPrompt or userPrompt with a template syntax error", () => {
      const error = expectDefinitionError(
        definition({ systemPrompt: "You help {{ customer_name " }),
        undefined,
        ["systemPrompt"],
        "systemPrompt: systemPrompt template has a syntax error on line 1: Unexpected end of input; fix the template's Jinja syntax.",
      );
      expect(error.cause).toBeInstanceOf(Error);
      expectDefinitionError(
        definition({ userPrompt: "Request:\n{% if request %}{{ request }}" }),
        undefined,
        ["userPrompt"],
        "userPrompt: userPrompt template ends (on line 2) inside a block or an expression: close every {% if %}, {% for %}, {% macro %}, {{ and bracket it opens.",
      );
    });
  });

  describe("chat generator and secrets", () => {
    const openai = (options: Record<string, unknown>) => ({ version: 1, chatGenerator: { type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini", ...options } } });

    it("refuses an unknown generator type, listing the built-in and registered ones", () => {
      expectDefinitionError(
        { version: 1, chatGenerator: { type: "OpenAIChatGenerater" } },
        { registry: { chatGenerators: { local: new ScriptedChatGenerator([]) } } },
        ["chatGenerator", "type"],
        "chatGenerator.type: names chat generator 'OpenAIChatGenerater', which is neither built in (FallbackChatGenerator, OpenAIChatGenerator, OpenAIResponsesChatGenerator, ScriptedChatGenerator) nor in registry.chatGenerators; fix the type or register it. Registered: local.",
      );
    });

    it("refuses options for a ready registered generator", () => {
      expectDefinitionError(
        { version: 1, chatGenerator: { type: "local", options: { model: "m" } } },
        { registry: { chatGenerators: { local: new ScriptedChatGenerator([]) } } },
        ["chatGenerator", "options"],
        "chatGenerator.options: is given for 'local', a ready generator in registry.chatGenerators; remove the options, or register a factory (options) => generator.",
      );
    });

    it("reports options a registered factory refuses at the options", () => {
      expectDefinitionError(
        { version: 1, chatGenerator: { type: "local", options: { model: "m" } } },
        {
          registry: {
            chatGenerators: {
              local: () => {
                throw new Error("unknown model m");
              },
            },
          },
        },
        ["chatGenerator", "options"],
        "chatGenerator.options: were refused by registry.chatGenerators.local: unknown model m",
      );
    });

    it("refuses an API key given as a literal, without repeating it", () => {
      const error = expectDefinitionError(
        openai({ apiKey: "sk-live-0123456789" }),
        undefined,
        ["chatGenerator", "options", "apiKey"],
        'chatGenerator.options.apiKey: is the key itself, and a definition names secrets by environment variable only: apiKey: { env: "OPENAI_API_KEY" }; take the key out of the definition (and rotate it if the definition was shared).',
      );
      expect(error.message).not.toContain("sk-live");
    });

    it("refuses an environment variable the app has not allowed", () => {
      process.env.AWS_SECRET_ACCESS_KEY_TW_TEST = "aws-secret";
      try {
        expectDefinitionError(
          openai({ apiKey: { env: "AWS_SECRET_ACCESS_KEY_TW_TEST" } }),
          undefined,
          ["chatGenerator", "options", "apiKey", "env"],
          "chatGenerator.options.apiKey.env: names environment variable AWS_SECRET_ACCESS_KEY_TW_TEST, which the app has not allowed a definition to read; allow it with fromJSON(data, { allowedEnv: [...] }). Allowed: OPENAI_API_KEY.",
        );
        expectDefinitionError(
          definition({ snapshotKey: { env: "OPENAI_API_KEY" } }),
          { allowedEnv: [] },
          ["snapshotKey", "env"],
          "snapshotKey.env: names environment variable OPENAI_API_KEY, which the app has not allowed a definition to read; allow it with fromJSON(data, { allowedEnv: [...] }). Allowed: none.",
        );
      } finally {
        delete process.env.AWS_SECRET_ACCESS_KEY_TW_TEST;
      }
    });

    it("refuses a baseURL the app has not allowed", () => {
      expectDefinitionError(
        openai({ baseURL: "https://collector.example/v1" }),
        { allowedBaseURLs: ["http://127.0.0.1:8080/v1"] },
        ["chatGenerator", "options", "baseURL"],
        "chatGenerator.options.baseURL: is an endpoint the app has not allowed, and the generator would send it the API key; allow it with fromJSON(data, { allowedBaseURLs: [...] }), or leave baseURL out (OPENAI_BASE_URL or OpenAI's API is used). Allowed: http://127.0.0.1:8080/v1.",
      );
      expectDefinitionError(
        openai({ baseURL: "http://127.0.0.1:8080/v1/" }),
        { allowedBaseURLs: ["http://127.0.0.1:8080/v1"] },
        ["chatGenerator", "options", "baseURL"],
        "chatGenerator.options.baseURL: is an endpoint the app has not allowed, and the generator would send it the API key; allow it with fromJSON(data, { allowedBaseURLs: [...] }), or leave baseURL out (OPENAI_BASE_URL or OpenAI's API is used). Allowed: http://127.0.0.1:8080/v1.",
      );
    });

    it("refuses a snapshotKey whose environment variable is not set", () => {
      delete process.env.TW_TEST_UNSET_SNAPSHOT_KEY;
      expectDefinitionError(
        definition({ snapshotKey: { env: "TW_TEST_UNSET_SNAPSHOT_KEY" } }),
        { allowedEnv: ["TW_TEST_UNSET_SNAPSHOT_KEY"] },
        ["snapshotKey", "env"],
        "snapshotKey.env: names environment variable TW_TEST_UNSET_SNAPSHOT_KEY, which is not set; set it to the secret, or remove the setting.",
      );
    });

    it("refuses a snapshotKey that is not { env }", () => {
      expectDefinitionError(definition({ snapshotKey: 42 }), undefined, ["snapshotKey"], 'snapshotKey: must be { env: "VARIABLE_NAME" }: a definition holds secrets only as environment-variable names, got number 42.');
      expectDefinitionError(definition({ snapshotKey: { env: "SNAPSHOT_KEY", value: "x" } }), undefined, ["snapshotKey", "value"], "snapshotKey.value: is not a key of this mapping. Keys: env.");
    });

    // A bug the properties found, now fixed: a snapshotKey given as the key itself is refused, but the message repeats it (up to 57
    // characters: `got string "0123…"`), so the secret reaches logs; apiKey's message gives only
    // the kind.
    it("refuses a snapshotKey given as a literal without repeating it", () => {
      const error = thrownBy(() => Agent.fromJSON(definition({ snapshotKey: "0123456789abcdef0123456789abcdef" }))) as DefinitionError;
      expect(error.path).toEqual(["snapshotKey"]);
      expect(error.message).not.toContain("0123456789abcdef");
    });

    // A bug the properties found, now fixed: AgentFromJSONOptions.chatGenerator is documented as "the definition's is checked, not
    // built", but with it, chatGenerator.type, its env names and its baseURL are not checked at all.
    it("checks the definition's chat generator when fromJSON is given one", () => {
      const error = thrownBy(() => Agent.fromJSON({ version: 1, chatGenerator: { type: "OpenAIChatGenerater" } }, { chatGenerator: new ScriptedChatGenerator([]) }));
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as DefinitionError).path).toEqual(["chatGenerator", "type"]);
    });
  });

  describe("with the app's typed stateSchema", () => {
    const typed = { customer_id: { type: z.string() }, notes: { type: z.array(z.string()) } };
    const matching = { customer_id: { type: { type: "string" } }, notes: { type: { type: "array", items: { type: "string" } } } };

    it("accepts a definition that describes the same keys, types and handlers", () => {
      expect(Agent.fromJSON(definition({ stateSchema: matching }), { stateSchema: typed })).toBeInstanceOf(Agent);
    });

    it("refuses a definition missing a key of the typed schema", () => {
      expectDefinitionError(
        definition({ stateSchema: { customer_id: matching.customer_id } }),
        { stateSchema: typed },
        ["stateSchema"],
        "stateSchema: has no key 'notes', which the stateSchema given to fromJSON declares; add it to the definition, or remove it from the code's schema.",
      );
    });

    it("refuses a key the typed schema does not have", () => {
      expectDefinitionError(
        definition({ stateSchema: { ...matching, priority: { type: { type: "integer" } } } }),
        { stateSchema: typed },
        ["stateSchema", "priority"],
        "stateSchema.priority: is not a key of the stateSchema given to fromJSON; remove it from the definition, or declare it in the code's schema. Keys there: customer_id, notes.",
      );
    });

    it("refuses a key of another type", () => {
      expectDefinitionError(
        definition({ stateSchema: { ...matching, customer_id: { type: { type: "integer" } } } }),
        { stateSchema: typed },
        ["stateSchema", "customer_id", "type"],
        'stateSchema.customer_id.type: differs from the type of \'customer_id\' in the stateSchema given to fromJSON: the definition has {"type":"integer"}, the code has {"type":"string"}; make them the same (agent.toJSON() writes the code\'s).',
      );
    });

    it("refuses a key with another handler", () => {
      expectDefinitionError(
        definition({ stateSchema: { ...matching, notes: { ...matching.notes, handler: "replaceValues" } } }),
        { stateSchema: typed },
        ["stateSchema", "notes", "handler"],
        "stateSchema.notes.handler: differs from the handler of 'notes' in the stateSchema given to fromJSON; name the same function (register it in registry.handlers), or change the code's schema.",
      );
    });
  });

  describe("the registry", () => {
    const sections = "classes, tools, toolsets, handlers, chatGenerators, confirmationStrategies, confirmationPolicies";

    it("refuses a registry that is not an object of sections", () => {
      expectConfigurationError(definition(), { registry: [] as unknown as AgentRegistry }, "registry", `The registry must be an object of sections (${sections}), got an array.`);
    });

    it("refuses an unknown section", () => {
      expectConfigurationError(definition(), { registry: { class: {} } as unknown as AgentRegistry }, "registry", `The registry has a section 'class', which is not one of ${sections}; check its spelling.`);
    });

    it("refuses a section that is not an object", () => {
      expectConfigurationError(definition(), { registry: { tools: [escalateTool] } as unknown as AgentRegistry }, "registry", "registry.tools must be an object of name → entry, got an array.");
    });

    it("refuses a class factory that is not a function, or makes something else", () => {
      expectConfigurationError(deskDefinition(), { registry: { classes: { DeskTools: 3 as unknown as () => object } } }, "registry", "registry.classes.DeskTools must be a function that makes the instance, got number 3.");
      expectConfigurationError(deskDefinition(), { registry: { classes: { DeskTools: () => ({ store: demoStore() }) } } }, "registry", "registry.classes.DeskTools made an object, not an instance of DeskTools; return new DeskTools(...).");
    });

    it("refuses a registered tool or toolset of the wrong kind", () => {
      expectConfigurationError(definition({ tools: [{ tool: "escalate" }] }), { registry: { tools: { escalate: {} as Tool } } }, "registry", "registry.tools.escalate must be a Tool or a defineTool function, got an object.");
      expectConfigurationError(definition({ tools: [{ toolset: "admin" }] }), { registry: { toolsets: { admin: [escalateTool] as unknown as Toolset } } }, "registry", "registry.toolsets.admin must be a Toolset, got an array.");
    });

    it("refuses a registered generator that is neither a generator nor a factory, or a factory that returns something else", () => {
      const chat = { version: 1, chatGenerator: { type: "local" } };
      expectConfigurationError(chat, { registry: { chatGenerators: { local: 3 as unknown as ScriptedChatGenerator } } }, "registry", "registry.chatGenerators.local must be a chat generator or a function (options) => generator, got number 3.");
      expectConfigurationError(chat, { registry: { chatGenerators: { local: () => ({}) as ScriptedChatGenerator } } }, "registry", "registry.chatGenerators.local returned an object, not a chat generator (an object with run(request)).");
    });

    it("refuses allowedEnv that is not a list of names", () => {
      expectConfigurationError(definition(), { allowedEnv: "OPENAI_API_KEY" as unknown as string[] }, "Agent.fromJSON", 'Agent.fromJSON has allowedEnv that is not an array of strings, got string "OPENAI_API_KEY".');
    });

    // A bug the properties found, now fixed: a registry.handlers entry that is not a function is reported as the definition's fault,
    // with a contradictory list ("neither built in nor in registry.handlers … use one of: mergeLists,
    // replaceValues, mergeLists"); the other sections throw ConfigurationError for a bad entry.
    it("refuses a registered handler that is not a function as a ConfigurationError", () => {
      const error = thrownBy(() =>
        Agent.fromJSON(definition({ stateSchema: { notes: { type: { type: "array" }, handler: "mergeLists" } } }), { registry: { handlers: { mergeLists: "nope" as unknown as () => unknown } } }),
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(DefinitionError);
    });

    // A bug the properties found, now fixed: the same for registry.confirmationStrategies ("names strategy 'ask', which is neither
    // 'deferred' nor in registry.confirmationStrategies … Registered: ask.").
    it("refuses a registered confirmation strategy without decide as a ConfigurationError", () => {
      const error = thrownBy(() =>
        Agent.fromJSON(definition({ tools: [{ tool: "escalate" }], confirmationStrategies: { escalate: { strategy: "ask" } } }), {
          registry: { tools: { escalate: escalateTool }, confirmationStrategies: { ask: {} as BlockingConfirmationStrategy } },
        }),
      );
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).not.toBeInstanceOf(DefinitionError);
    });
  });
});
