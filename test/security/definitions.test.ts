import "../../examples/yaml-agent/tools.generated";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { Agent, type AgentRegistry, ChatMessage, ConfigurationError, DefinitionError, Tool, Toolset } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import type { OpenAIChatGenerator } from "toolwright/openai";
import { chatGeneratorFromDefinition } from "../../src/definition/chatGeneratorDefinition";
import { decoratedTools } from "../../src/tools/decoratedTools";
import { readYamlDefinition } from "../../src/yaml/yamlDocument";
import { DeskTools, latestTickets } from "../../examples/yaml-agent/deskTools";
import { scriptedDeskModel } from "../../examples/yaml-agent/scriptedDesk";
import { demoStore } from "../../examples/support/ticketStore";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

type Path = (string | number)[];
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** examples/yaml-agent/agent.yaml, as the data `loadAgent` gives `Agent.fromJSON`. */
const exampleDefinition = readYamlDefinition(readFileSync(join(__dirname, "../../examples/yaml-agent/agent.yaml"), "utf8"), "agent.yaml").data as Record<string, Json>;

/** The example with a part that names every other registry section, so mutations reach every lookup. */
function extendedDefinition(): Record<string, Json> {
  const definition = structuredClone(exampleDefinition);
  return {
    ...definition,
    chatGenerator: { type: "local", options: { model: "scripted" } },
    tools: [...(definition.tools as Json[]), { tool: "echo", outputsToString: { handler: "shout" } }, { toolset: "admin" }],
    exitConditions: ["text", "escalate", "echo"],
    confirmationStrategies: { close_ticket: { strategy: "deferred", policy: "mine" }, echo: { strategy: "ask" }, "*": { strategy: "deferred", policy: "askOnce" } },
    snapshotKey: { env: snapshotVariable },
  };
}

const snapshotVariable = "TW_FUZZ_SNAPSHOT_KEY";
const prototypeNames = ["prototype", "then", "toJSON", "call", "apply", "bind", "name", "length", ...Object.getOwnPropertyNames(Object.prototype)];
const registeredNames = ["DeskTools", "latestTickets", "shout", "echo", "admin", "local", "ask", "mine", "trap"];
const builtInNames = ["deferred", "mergeLists", "replaceValues", "alwaysAsk", "askOnce", "neverAsk", "OpenAIChatGenerator", "ScriptedChatGenerator", "text", "*", "search_tickets", "close_ticket", "escalate"];
const hostileName = fc.oneof({ arbitrary: fc.constantFrom(...prototypeNames), weight: 4 }, { arbitrary: fc.constantFrom(...registeredNames, ...builtInNames), weight: 3 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 });

// Built with defineProperty, so a `__proto__` key is own data, as JSON.parse and YAML parsers make it.
function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], out));
  else if (value !== null && typeof value === "object") for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...path, key], out);
  return out;
}

function valueAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, segment) => (value as Record<string | number, unknown>)[segment], root);
}

/** One change to a definition: a key renamed or added, a value or string replaced. */
interface Mutation {
  readonly kind: "renameKey" | "addKey" | "replaceValue" | "replaceString";
  readonly at: number;
  readonly name: string;
  readonly json: Json;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("renameKey", "addKey", "replaceValue", "replaceString"),
  at: fc.nat(),
  name: hostileName,
  json: fc.oneof(fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, hostileName),
});

function mutate(definition: Record<string, Json>, mutations: readonly Mutation[]): Record<string, Json> {
  const out = structuredClone(definition);
  for (const { kind, at, name, json } of mutations) {
    const paths = pathsOf(out);
    if (kind === "addKey") {
      const objects = paths.filter((path) => {
        const value = valueAt(out, path);
        return value !== null && typeof value === "object" && !Array.isArray(value);
      });
      setOwnKey(valueAt(out, objects[at % objects.length]!) as Record<string, unknown>, name, json);
      continue;
    }
    const candidates = paths.filter((path) => path.length > 0 && (kind !== "replaceString" || typeof valueAt(out, path) === "string"));
    if (candidates.length === 0) continue;
    const path = candidates[at % candidates.length]!;
    const parent = valueAt(out, path.slice(0, -1)) as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (kind === "renameKey" && typeof last === "string") {
      const value = parent[last];
      delete parent[last];
      setOwnKey(parent as Record<string, unknown>, name, value);
    } else {
      parent[last] = kind === "replaceString" ? name : json;
    }
  }
  return out;
}

const sections = ["classes", "tools", "toolsets", "handlers", "chatGenerators", "confirmationStrategies", "confirmationPolicies"] as const;
type Section = (typeof sections)[number];

const echoTool = new Tool({ name: "echo", description: "Repeat the text.", parameters: { type: "object", properties: { text: { type: "string" } } }, function: (args) => args.text });
const adminTool = new Tool({ name: "reopen_ticket", description: "Reopen a ticket.", parameters: { type: "object", properties: { ticketId: { type: "string" } } }, function: () => "reopened" });
const trapTool = new Tool({ name: "trap", description: "Reached by a name nobody registered.", parameters: { type: "object", properties: {} }, function: () => "trap" });

/**
 * A registry whose sections hold spies, and inherit (from a prototype of their own) an entry of
 * the section's kind under every Object.prototype name: a lookup that is not own-property-only
 * would find one of those and succeed. Every `get` on a section is recorded with its key.
 */
function spyRegistry() {
  const calls: string[] = [];
  const reached: Array<[Section, string]> = [];
  const spy =
    <T>(label: string, result: () => T) =>
    (..._args: unknown[]): T => {
      calls.push(label);
      return result();
    };
  const own: Record<Section, Record<string, unknown>> = {
    classes: { DeskTools: spy("classes.DeskTools", () => new DeskTools(demoStore())) },
    tools: { echo: echoTool },
    toolsets: { admin: new Toolset([adminTool], { name: "admin" }) },
    handlers: { latestTickets: spy("handlers.latestTickets (called)", () => latestTickets(undefined, [])), shout: spy("handlers.shout (called)", () => "") },
    chatGenerators: { local: spy("chatGenerators.local", () => new ScriptedChatGenerator([])) },
    confirmationStrategies: { ask: { decide: spy("confirmationStrategies.ask (called)", () => ({ action: "confirm" })) } },
    confirmationPolicies: { mine: { shouldAsk: spy("confirmationPolicies.mine (called)", () => true) } },
  };
  const trap: Record<Section, () => unknown> = {
    classes: () => spy("TRAP classes", () => new DeskTools(demoStore())),
    tools: () => trapTool,
    toolsets: () => new Toolset([trapTool], { name: "trap" }),
    handlers: () => spy("TRAP handlers", () => undefined),
    chatGenerators: () => new ScriptedChatGenerator([ChatMessage.fromAssistant("trap")]),
    confirmationStrategies: () => ({ decide: spy("TRAP confirmationStrategies", () => ({ action: "confirm" })) }),
    confirmationPolicies: () => ({ shouldAsk: spy("TRAP confirmationPolicies", () => true) }),
  };
  const registry: Record<string, unknown> = {};
  for (const section of sections) {
    const inherited = Object.create(Object.prototype) as Record<string, unknown>;
    for (const name of prototypeNames) Object.defineProperty(inherited, name, { value: trap[section](), enumerable: false, configurable: true });
    const entries = Object.create(inherited) as Record<string, unknown>;
    for (const [name, entry] of Object.entries(own[section])) setOwnKey(entries, name, entry);
    registry[section] = new Proxy(entries, {
      get(target, key, receiver) {
        if (typeof key === "string") reached.push([section, key]);
        return Reflect.get(target, key, receiver);
      },
    });
  }
  return { registry: registry as AgentRegistry, own, calls, reached };
}

function prototypeState(): string {
  const describe = (prototype: object) =>
    Object.getOwnPropertyNames(prototype)
      .sort()
      .map((name) => {
        const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
        return `${name}:${typeof descriptor.value}:${descriptor.writable}:${descriptor.enumerable}:${typeof descriptor.get}`;
      });
  return JSON.stringify([describe(Object.prototype), describe(Array.prototype), describe(Function.prototype), Object.getPrototypeOf({}) === Object.prototype]);
}
const cleanPrototypes = prototypeState();
const objectToString = Object.prototype.toString;

function expectPrototypesUnchanged(): void {
  expect(prototypeState()).toBe(cleanPrototypes);
  expect(Object.prototype.toString).toBe(objectToString);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

type DefinedAgent = ReturnType<typeof Agent.fromJSON>;

/** Agent.fromJSON's outcome: the Agent, or the error, which must be a DefinitionError or ConfigurationError. */
function outcomeOf(build: () => DefinedAgent): { agent: DefinedAgent } | { error: DefinitionError | ConfigurationError } {
  try {
    return { agent: build() };
  } catch (error) {
    if (error instanceof DefinitionError || error instanceof ConfigurationError) return { error };
    throw new Error(`Agent.fromJSON threw ${(error as Error)?.name}: ${(error as Error)?.message}\n${(error as Error)?.stack}`);
  }
}

// The class references of a definition, by class name.
function classReferences(definition: unknown, name: string): number {
  const tools = (definition as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return 0;
  return tools.filter((entry) => entry !== null && typeof entry === "object" && Object.hasOwn(entry, "class") && (entry as { class: unknown }).class === name).length;
}

const secretValue = (name: string) => `sk-fuzz-${name}-${"s".repeat(32)}`;
const fixedEnv = { OPENAI_API_KEY: secretValue("OPENAI_API_KEY"), [snapshotVariable]: secretValue(snapshotVariable), TW_FUZZ_KEY_A: secretValue("TW_FUZZ_KEY_A"), TW_FUZZ_KEY_B: secretValue("TW_FUZZ_KEY_B"), TW_FUZZ_EMPTY: "" };
const savedEnv = new Map<string, string | undefined>();

beforeAll(() => {
  for (const name of [...Object.keys(fixedEnv), "OPENAI_BASE_URL", "TW_FUZZ_UNSET"]) savedEnv.set(name, process.env[name]);
  for (const [name, value] of Object.entries(fixedEnv)) process.env[name] = value;
  delete process.env.OPENAI_BASE_URL;
  delete process.env.TW_FUZZ_UNSET;
});
afterAll(() => {
  for (const [name, value] of savedEnv) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("Agent.fromJSON under hostile definitions", () => {
  const runs = fuzzRuns(300);
  const allowedEnv = ["OPENAI_API_KEY", snapshotVariable];

  it("accepts the definitions the mutations start from", () => {
    for (const definition of [exampleDefinition, extendedDefinition()]) {
      const { registry, calls, reached } = spyRegistry();
      expect(Agent.fromJSON(structuredClone(definition), { registry, allowedEnv })).toBeInstanceOf(Agent);
      expect(calls.filter((call) => call.includes("called") || call.startsWith("TRAP"))).toEqual([]);
      expect(reached.length).toBeGreaterThan(0);
    }
  });

  test(`mutated definitions build an Agent or throw DefinitionError; only registered entries are reached, by their own names; no code runs; Object.prototype is unchanged (${runs} cases)`, () => {
    let built = 0;
    fc.assert(
      fc.property(fc.constantFrom(exampleDefinition, extendedDefinition()), fc.array(mutation, { minLength: 1, maxLength: 4 }), (base, mutations) => {
        const definition = mutate(base, mutations);
        const { registry, own, calls, reached } = spyRegistry();
        const outcome = outcomeOf(() => Agent.fromJSON(definition, { registry, allowedEnv }));
        // Every entry read from a section is one registered there under that very name.
        for (const [section, key] of reached) expect(`${section}.${key}: ${Object.hasOwn(own[section], key)}`).toBe(`${section}.${key}: true`);
        // Nothing inherited was reached, and no tool, handler, strategy or policy ran.
        expect(calls.filter((call) => call.startsWith("TRAP") || call.includes("(called)"))).toEqual([]);
        // A factory runs only for a reference that names it.
        expect(calls.filter((call) => call === "classes.DeskTools").length).toBeLessThanOrEqual(classReferences(definition, "DeskTools"));
        if (calls.includes("chatGenerators.local")) expect((definition.chatGenerator as { type?: unknown }).type).toBe("local");
        // The registry is well-formed, so a ConfigurationError would blame the code for the definition's fault.
        if ("error" in outcome) expect(outcome.error).toBeInstanceOf(DefinitionError);
        if ("agent" in outcome) {
          built++;
          expect(outcome.agent.tools.map((tool) => tool.name)).not.toContain("trap");
        }
        expectPrototypesUnchanged();
      }),
      fuzzParameters(runs),
    );
    // The property is not vacuous: some mutated definitions are still valid.
    if (runs >= 100) expect(built).toBeGreaterThan(0);
  }, fuzzTimeout(runs, 40));

  test(`a parameter the code hides stays hidden from the model in every definition that builds (${runs} cases)`, () => {
    // What the code hides: tool name → the parameters its own inputsFromState fills.
    const hidden = new Map(decoratedTools(new DeskTools(demoStore()))!.map((tool) => [tool.name, Object.values(tool.inputsFromState)]));
    expect(hidden.get("search_tickets")).toEqual(["customerId"]);
    const searchTool = decoratedTools(new DeskTools(demoStore()))!.find((tool) => tool.name === "search_tickets")!;
    // Mostly mappings that could build (string keys into string parameters), some that leave
    // customerId out or map it wrong, a few hostile names.
    const stateKey = fc.oneof({ arbitrary: fc.constantFrom("customer_id", "customer_name"), weight: 6 }, { arbitrary: fc.constantFrom("tickets", "escalation", "customerId", "__proto__", "constructor", "toString"), weight: 1 });
    const parameter = fc.oneof({ arbitrary: fc.constantFrom("customerId", "query"), weight: 6 }, { arbitrary: fc.constantFrom("limit", "ticketId", "constructor", "toString", "__proto__"), weight: 1 });
    const inputsFromState = fc.array(fc.tuple(stateKey, parameter), { maxLength: 3 }).map((entries) => {
      const out: Record<string, string> = {};
      for (const [key, value] of entries) setOwnKey(out, key, value);
      return out;
    });
    // The example with search_tickets' settings replaced, through its class reference or as a
    // registered Tool (the class's other tools only), and sometimes further mutated.
    const definitions = fc
      .tuple(inputsFromState, fc.boolean(), fc.boolean(), fc.oneof({ arbitrary: fc.constant([]), weight: 3 }, { arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }), weight: 1 }))
      .map(([mapping, viaRegistry, withOutputs, mutations]) => {
        const definition = structuredClone(exampleDefinition) as Record<string, unknown>;
        const reference = (definition.tools as Array<Record<string, Record<string, Record<string, unknown>>>>)[0]!;
        const settings = { inputsFromState: mapping, ...(withOutputs && { outputsToState: { tickets: { source: "tickets" } } }) };
        if (viaRegistry) {
          delete reference.tools!.search_tickets;
          (reference as Record<string, unknown>).include = ["close_ticket", "escalate"];
          (definition.tools as unknown[]).push({ tool: "search", ...settings });
        } else {
          reference.tools!.search_tickets = settings;
        }
        return mutate(definition as Record<string, Json>, mutations);
      });
    let built = 0;
    fc.assert(
      fc.property(definitions, (definition) => {
        const registry: AgentRegistry = { classes: { DeskTools: () => new DeskTools(demoStore()) }, handlers: { latestTickets }, tools: { search: searchTool } };
        const outcome = outcomeOf(() => Agent.fromJSON(definition, { registry, chatGenerator: new ScriptedChatGenerator([]) }));
        if (!("agent" in outcome)) return;
        built++;
        for (const tool of outcome.agent.tools) {
          for (const name of hidden.get(tool.name) ?? []) {
            const parameters = tool.parameters as { properties?: Record<string, unknown>; required?: string[] };
            expect(Object.hasOwn(parameters.properties ?? {}, name)).toBe(false);
            expect(parameters.required ?? []).not.toContain(name);
            // Still filled from state.
            expect(Object.values(tool.inputsFromState)).toContain(name);
          }
        }
        expectPrototypesUnchanged();
      }),
      fuzzParameters(runs),
    );
    if (runs >= 100) expect(built).toBeGreaterThan(0);
  }, fuzzTimeout(runs, 20));

  it("sends the model no hidden parameter in a run of the example", async () => {
    const model = scriptedDeskModel();
    const agent = Agent.fromJSON(structuredClone(exampleDefinition), { registry: { classes: { DeskTools: () => new DeskTools(demoStore()) }, handlers: { latestTickets } }, chatGenerator: model });
    await agent.run({ customer_id: "c-42", customer_name: "Ada", promptVariables: { company: "Acme", request: "Close my printer ticket." } });
    expect(model.requests.length).toBeGreaterThan(0);
    for (const request of model.requests) {
      const search = request.tools!.find((spec) => spec.name === "search_tickets")!;
      expect(Object.keys((search.parameters as { properties: object }).properties)).toEqual(["query", "limit"]);
    }
  });
});

describe("Agent.fromJSON and the app's secrets and endpoints", () => {
  const runs = fuzzRuns(300);
  const envNames = ["OPENAI_API_KEY", "TW_FUZZ_KEY_A", "TW_FUZZ_KEY_B", "TW_FUZZ_EMPTY", "TW_FUZZ_UNSET", snapshotVariable, "constructor", "toString", "__proto__"];
  const envName = fc.oneof({ arbitrary: fc.constantFrom(...envNames), weight: 5 }, { arbitrary: fc.stringMatching(/^[A-Z0-9_]{1,8}$/).map((rest) => `TW_FUZZ_R_${rest}`), weight: 1 });
  const urls = ["http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/", "HTTP://127.0.0.1:8080/v1", "https://collector.example/v1", "http://localhost:11434/v1"];
  const url = fc.oneof({ arbitrary: fc.constantFrom(...urls), weight: 4 }, { arbitrary: fc.webUrl(), weight: 1 });
  const secrets = Object.values(fixedEnv).filter((value) => value !== "");
  const set = (name: string) => Object.hasOwn(process.env, name) && process.env[name] !== "" && process.env[name] !== undefined;

  // The names and URL a definition uses are often, not always, among the allowed ones.
  const cases = fc
    .record({
      type: fc.constantFrom("OpenAIChatGenerator", "OpenAIResponsesChatGenerator"),
      apiKey: fc.option(envName, { nil: undefined, freq: 2 }),
      baseURL: fc.option(url, { nil: undefined, freq: 2 }),
      snapshotKey: fc.option(envName, { nil: undefined, freq: 2 }),
      allowedEnv: fc.uniqueArray(envName, { maxLength: 4 }),
      allowedBaseURLs: fc.uniqueArray(url, { maxLength: 3 }),
      allow: fc.record({ apiKey: fc.boolean(), baseURL: fc.boolean(), snapshotKey: fc.boolean() }),
    })
    .map(({ allow, ...c }) => ({
      ...c,
      allowedEnv: [...new Set([...c.allowedEnv, ...(allow.apiKey && c.apiKey !== undefined ? [c.apiKey] : []), ...(allow.snapshotKey && c.snapshotKey !== undefined ? [c.snapshotKey] : [])])],
      allowedBaseURLs: [...new Set([...c.allowedBaseURLs, ...(allow.baseURL && c.baseURL !== undefined ? [c.baseURL] : [])])],
    }));

  /** The names of the variables whose (set) values were read while `build` ran. */
  function envReads(build: () => void): Set<string> {
    const reads = new Set<string>();
    const real = process.env;
    process.env = new Proxy(real, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof key === "string" && Object.hasOwn(target, key) && typeof value === "string" && value !== "") reads.add(key);
        return value;
      },
    });
    try {
      build();
    } finally {
      process.env = real;
    }
    return reads;
  }

  test(`a definition reads only allowed variables and sends the key only to allowed endpoints (${runs} cases)`, () => {
    let built = 0;
    fc.assert(
      fc.property(cases, (c) => {
        const allowedEnv = c.allowedEnv;
        const options = { model: "gpt-4o-mini", ...(c.apiKey !== undefined && { apiKey: { env: c.apiKey } }), ...(c.baseURL !== undefined && { baseURL: c.baseURL }) };
        const definition = { version: 1, chatGenerator: { type: c.type, options }, ...(c.snapshotKey !== undefined && { snapshotKey: { env: c.snapshotKey } }) };
        const keyVariable = c.apiKey ?? "OPENAI_API_KEY";
        const problems: Path[] = [];
        if (c.apiKey !== undefined && (!allowedEnv.includes(c.apiKey) || !set(c.apiKey))) problems.push(["chatGenerator", "options", "apiKey", "env"]);
        if (c.baseURL !== undefined && !c.allowedBaseURLs.includes(c.baseURL)) problems.push(["chatGenerator", "options", "baseURL"]);
        // Without apiKey the generator would read OPENAI_API_KEY: allowed or refused like any other read.
        if (c.apiKey === undefined && set("OPENAI_API_KEY") && !allowedEnv.includes("OPENAI_API_KEY")) problems.push(["chatGenerator", "options"]);
        if (c.snapshotKey !== undefined && (!allowedEnv.includes(c.snapshotKey) || !set(c.snapshotKey))) problems.push(["snapshotKey", "env"]);

        let outcome: ReturnType<typeof outcomeOf> | undefined;
        const reads = envReads(() => {
          outcome = outcomeOf(() => Agent.fromJSON(structuredClone(definition), { allowedEnv, allowedBaseURLs: c.allowedBaseURLs }));
        });
        if ("error" in outcome!) {
          const error = outcome.error;
          expect(error).toBeInstanceOf(DefinitionError);
          expect(problems.map((path) => JSON.stringify(path))).toContain(JSON.stringify((error as DefinitionError).path));
          for (const secret of secrets) expect(error.message).not.toContain(secret);
          return;
        }
        built++;
        expect(problems).toEqual([]);
        const secretReads = [...reads].filter((name) => envNames.includes(name) || name.startsWith("TW_FUZZ_"));
        for (const name of secretReads) expect(`${name} allowed: ${allowedEnv.includes(name)}`).toBe(`${name} allowed: true`);
        // The generator holds the key of the named (allowed) variable and the allowed endpoint, or OpenAI's.
        const generator = chatGeneratorFromDefinition(definition.chatGenerator, {}, { allowedEnv, allowedBaseURLs: c.allowedBaseURLs }) as OpenAIChatGenerator;
        expect(generator.client).toMatchObject({ apiKey: process.env[keyVariable], baseURL: c.baseURL ?? "https://api.openai.com/v1" });
        if (c.baseURL !== undefined) expect(c.allowedBaseURLs).toContain(c.baseURL);
        expectPrototypesUnchanged();
      }),
      fuzzParameters(runs),
    );
    if (runs >= 100) expect(built).toBeGreaterThan(0);
  }, fuzzTimeout(runs, 20));

  // Found by the property above: leaving apiKey out must not read OPENAI_API_KEY past allowedEnv.
  it("refuses a definition without apiKey when allowedEnv leaves OPENAI_API_KEY out", () => {
    const definition = { version: 1, chatGenerator: { type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini" } } };
    expect(() => Agent.fromJSON(definition, { allowedEnv: ["TW_FUZZ_KEY_A"] })).toThrow(DefinitionError);
  });
});
