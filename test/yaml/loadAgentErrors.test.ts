import "../../examples/yaml-agent/tools.generated";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type AgentRegistry, DefinitionError } from "toolwright";
import { loadAgent, parseAgent } from "toolwright/yaml";
import { DeskTools, latestTickets } from "../../examples/yaml-agent/deskTools";
import { demoStore } from "../../examples/support/ticketStore";

const registry = (): AgentRegistry => ({ classes: { DeskTools: () => new DeskTools(demoStore()) }, handlers: { latestTickets } });

// Lines 1–4 of every case; what a case adds starts on line 5.
const head = `version: 1
chatGenerator:
  type: ScriptedChatGenerator
  options: { script: [] }
`;

/** The DefinitionError `parseAgent` throws for `text`, read as agent.yaml. */
function parseError(text: string): DefinitionError {
  try {
    parseAgent(text, { file: "agent.yaml", registry: registry() });
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error("expected parseAgent to throw");
}

/** Asserts the error's message exactly, and that its location and path agree with it. */
function expectLocated(text: string, line: number, column: number, path: readonly (string | number)[], message: string): void {
  const error = parseError(text);
  expect({ message: error.message, path: error.path, location: error.location }).toEqual({ message, path, location: { file: "agent.yaml", line, column } });
  expect(message.startsWith(`agent.yaml:${line}:${column}: `)).toBe(true);
}

const saved = process.env.OPENAI_API_KEY;
beforeAll(() => {
  process.env.OPENAI_API_KEY = "sk-test-load-agent-errors";
});
afterAll(() => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
});

describe("parseAgent", () => {
  it("reads the example's agent.yaml", () => {
    const text = readFileSync(join(__dirname, "../../examples/yaml-agent/agent.yaml"), "utf8");
    expect(parseAgent(text, { file: "agent.yaml", registry: registry() })).toBeInstanceOf(Agent);
    expect(parseAgent(head, { file: "agent.yaml" })).toBeInstanceOf(Agent);
  });

  it("points an unknown key at the key", () => {
    expectLocated(
      `${head}sytemPrompt: Hello.\n`,
      5,
      1,
      ["sytemPrompt"],
      "agent.yaml:5:1: sytemPrompt: is not a key of an agent definition; did you mean 'systemPrompt'? Keys: $schema, version, name, chatGenerator, tools, systemPrompt, userPrompt, stateSchema, outputSchema, exitConditions, maxAgentSteps, maxOutputRetries, toolConcurrency, toolTimeoutMs, maxToolResultChars, raiseOnToolInvocationFailure, confirmationStrategies, guardrails, budget, compaction, snapshotKey.",
    );
  });

  it("points an unknown key deep inside tool settings at the key", () => {
    expectLocated(
      `${head}tools:\n  - class: DeskTools\n    tools:\n      escalate:\n        inputFromState: {}\n`,
      9,
      9,
      ["tools", 0, "tools", "escalate", "inputFromState"],
      "agent.yaml:9:9: tools[0].tools.escalate.inputFromState: is not a key of this mapping; did you mean 'inputsFromState'? Keys: description, inputsFromState, outputsToState, outputsToString.",
    );
  });

  it("points a wrong value at the value", () => {
    expectLocated(`${head}maxAgentSteps: 0\n`, 5, 16, ["maxAgentSteps"], "agent.yaml:5:16: maxAgentSteps: must be a whole number from 1 to 100000 (the most model calls of a run), got number 0.");
    expectLocated(
      `${head}tools:\n  - class: DeskTool\n`,
      6,
      12,
      ["tools", 0, "class"],
      "agent.yaml:6:12: tools[0].class: names class 'DeskTool', which no imported generated module describes; name a class with @tool methods, run toolwright codegen, and import the generated module first. Classes: DeskTools (examples/yaml-agent/deskTools.ts).",
    );
  });

  it("points a missing key at the mapping that lacks it", () => {
    expectLocated(`chatGenerator:\n  type: ScriptedChatGenerator\nname: desk\n`, 1, 1, ["version"], "agent.yaml:1:1: version: must be 1 (the only version of the format), got undefined.");
    expectLocated(
      `version: 1\nchatGenerator:\n  options: { script: [] }\n`,
      3,
      3,
      ["chatGenerator", "type"],
      "agent.yaml:3:3: chatGenerator.type: is missing: it must be a name of 1 to 200 characters (a chat generator type: OpenAIChatGenerator, OpenAIResponsesChatGenerator, FallbackChatGenerator, ScriptedChatGenerator or a registry.chatGenerators name).",
    );
    expectLocated(
      `${head}stateSchema:\n  customer_id:\n    handler: replaceValues\n`,
      7,
      5,
      ["stateSchema", "customer_id", "type"],
      "agent.yaml:7:5: stateSchema.customer_id.type: is missing: every state key needs a JSON Schema type, e.g. { type: string } or { type: array, items: { type: string } }.",
    );
  });

  it("points a tools entry with two kinds at the entry", () => {
    expectLocated(
      `${head}tools:\n  - class: DeskTools\n    toolset: admin\n`,
      6,
      5,
      ["tools", 0],
      "agent.yaml:6:5: tools[0]: must be one tool reference: { class: <a class with @tool methods> }, { tool: <a tool name> } or { toolset: <a toolset name> }, got 'class' and 'toolset'.",
    );
  });

  const twoReferences = `${head}stateSchema:
  customer_id: { type: { type: string } }
tools:
  - class: DeskTools
    include: [escalate]
  - class: DeskTools
    include: [close_ticket, search_tickets]
    tools:
`;

  it("points a problem in tools[1].tools.<tool>.inputsFromState at that mapping", () => {
    expectLocated(
      `${twoReferences}      close_ticket:\n        inputsFromState:\n          customer: customerId\n`,
      15,
      11,
      ["tools", 1, "tools", "close_ticket", "inputsFromState"],
      "agent.yaml:15:11: tools[1].tools.close_ticket.inputsFromState: Tool 'close_ticket' reads state key 'customer' through inputsFromState, but the Agent's stateSchema has no such key; add 'customer' to stateSchema or fix the key. State keys: customer_id, messages. (DeskTools.closeTicket (examples/yaml-agent/deskTools.ts:29:3))",
    );
    expectLocated(
      `${twoReferences}      search_tickets:\n        inputsFromState: {}\n`,
      14,
      26,
      ["tools", 1, "tools", "search_tickets", "inputsFromState"],
      "agent.yaml:14:26: tools[1].tools.search_tickets.inputsFromState: leaves parameter 'customerId' of tool 'search_tickets' unfilled, which the code fills from state key 'customer_id' and hides from the model; a definition cannot show the model a hidden parameter, so map a state key to it (customer_id: customerId).",
    );
  });

  it("points a template syntax error at the prompt", () => {
    expectLocated(
      `${head}systemPrompt: |-\n  You help {{ customer_name }}.\n  Tickets: {% for t in tickets %}{{ t.id }}\n`,
      5,
      15,
      ["systemPrompt"],
      "agent.yaml:5:15: systemPrompt: systemPrompt template ends (on line 2) inside a block or an expression: close every {% if %}, {% for %}, {% macro %}, {{ and bracket it opens.",
    );
    expectLocated(`${head}userPrompt: "Hello {{ name "\n`, 5, 13, ["userPrompt"], "agent.yaml:5:13: userPrompt: userPrompt template has a syntax error on line 1: Unexpected end of input; fix the template's Jinja syntax.");
  });

  it("points an environment variable the app has not allowed at its name", () => {
    expectLocated(
      `version: 1\nchatGenerator:\n  type: OpenAIChatGenerator\n  options:\n    model: gpt-4o-mini\n    apiKey: { env: AWS_SECRET_ACCESS_KEY }\n`,
      6,
      20,
      ["chatGenerator", "options", "apiKey", "env"],
      "agent.yaml:6:20: chatGenerator.options.apiKey.env: names environment variable AWS_SECRET_ACCESS_KEY, which the app has not allowed a definition to read; allow it with fromJSON(data, { allowedEnv: [...] }). Allowed: OPENAI_API_KEY.",
    );
  });

  // A bug the properties found, now fixed: a '__proto__' key is a problem with the key, but parseAgent points only "is not a key
  // of" problems at the key, so this one points at the value (7:16).
  it("points a '__proto__' key at the key", () => {
    const error = parseError(`${head}tools:\n  - class: DeskTools\n    __proto__: { polluted: true }\n`);
    expect(error.path).toEqual(["tools", 0, "__proto__"]);
    expect(error.location).toEqual({ file: "agent.yaml", line: 7, column: 5 });
  });
});

describe("loadAgent", () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), "toolwright-load-agent-"));
  });
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it("refuses a file that does not exist", async () => {
    const file = join(directory, "missing.yaml");
    const error = await loadAgent(file).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof DefinitionError)) throw new Error(`expected a DefinitionError, got ${String(error)}`);
    expect({ message: error.message, path: error.path, location: error.location }).toEqual({
      message: `(definition): could not be read from ${file}: ENOENT: no such file or directory, open '${file}'`,
      path: [],
      location: undefined,
    });
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("locates a problem in the file it was given", async () => {
    const file = join(directory, "agent.yaml");
    writeFileSync(file, `${head}maxAgentSteps: 1.5\n`);
    const error = await loadAgent(file, { registry: registry() }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof DefinitionError)) throw new Error(`expected a DefinitionError, got ${String(error)}`);
    expect(error.message).toBe(`${file}:5:16: maxAgentSteps: must be a whole number from 1 to 100000 (the most model calls of a run), got number 1.5.`);
    expect(error.location).toEqual({ file, line: 5, column: 16 });
  });
});
