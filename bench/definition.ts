// Issue #16: what agents as data cost. The example definition (examples/yaml-agent/agent.yaml: a
// decorated class with per-tool settings, four JSON Schema state types, a registered handler, two
// Jinja prompts, an OpenAI generator named by data):
// - in a fresh process, what importing toolwright loads (no zod, no @huggingface/jinja, no yaml),
//   and the first `Agent.fromJSON` / `parseAgent` of the process, with its one-time parts (loading
//   zod, jinja, ajv and the OpenAI SDK; building the definition format's zod schema; the first
//   template compile; the first JSON Schema → zod conversion) taken apart in a staged process;
// - in this process, steady state: fromJSON (with the chat generator given, and with the
//   OpenAIChatGenerator the definition names built), its parts, `toJSON` of a code-built and of a
//   fromJSON Agent, `parseAgent` against `fromJSON(JSON.parse(json))`, template compile and render
//   over 0 / 20 / 200 tickets, and a 1-step run's cost with templated prompts against plain strings;
// - the heap an Agent keeps, from a definition and built in code.
// Setups take turns in rounds (the first one moving each round); per setup, the median over rounds
// of each round's median op. Nothing here loads zod, yaml or jinja at the top: this file is also the
// fresh process (`node definition.js child <mode>`), whose loads are part of what is measured.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { AgentDefinition, AgentRegistry, ChatGenerator, ChatGeneratorRequest, StateSchema } from "toolwright";
import { fmt, median } from "./measure";
import { runCommand } from "./runCommand";

type Toolwright = typeof import("toolwright");
type Yaml = typeof import("toolwright/yaml");

const root = path.join(__dirname, "..", "..");
const dist = path.join(root, "dist");
const exampleYamlFile = path.join(root, "examples", "yaml-agent", "agent.yaml");
const exampleModules = path.join(dist, "examples", "yaml-agent");

/** A model that answers every call with the same text: no I/O, no parsing. */
function textModel(tw: Toolwright, text = "Done."): ChatGenerator {
  const reply = tw.ChatMessage.fromAssistant(text);
  return { run: async (_request: ChatGeneratorRequest) => ({ replies: [reply] }) };
}

/** The example's store stand-in for processes that must not load zod (the real one's module does). */
const emptyStore = { search: () => [], close: () => ({}) };

function tickets(count: number): { id: string; customerId: string; subject: string; status: "open" | "closed" }[] {
  return Array.from({ length: count }, (_, i) => ({ id: `T-${i + 1}`, customerId: "c-42", subject: `Ticket number ${i + 1} about the printer`, status: i % 3 === 0 ? "closed" : "open" }));
}

// ---------------------------------------------------------------------------------------------
// The fresh process.

/** The packages loaded so far, and this build's files as `toolwright:<file>` (as test/startup reads them). */
function loadedNow(): string[] {
  const seen = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    if (m) seen.add(m[1]!);
    else if (path.dirname(file) === dist) seen.add(`toolwright:${path.basename(file)}`);
  }
  return [...seen].sort();
}

function ms(start: number): number {
  return performance.now() - start;
}

/** One fresh-process measurement; prints one JSON line. */
async function child(mode: string, dataFile: string): Promise<void> {
  const out: Record<string, unknown> = {};
  let start = performance.now();
  const tw = require("toolwright") as Toolwright;
  out.importMs = ms(start);
  // The app's own modules (its generated module and tool class), loaded before anything is timed.
  require(path.join(exampleModules, "tools.generated.js"));
  const { DeskTools, latestTickets } = require(path.join(exampleModules, "deskTools.js")) as typeof import("../examples/yaml-agent/deskTools");
  const registry: AgentRegistry = { classes: { DeskTools: () => new DeskTools(emptyStore as never) }, handlers: { latestTickets } };
  const data = JSON.parse(fs.readFileSync(dataFile, "utf8")) as AgentDefinition;
  const model = textModel(tw);
  const before = process.memoryUsage();
  const times: number[] = [];
  const openai = mode === "openai";
  const options = openai ? { registry } : { registry, chatGenerator: model };
  if (mode === "scripted" || mode === "openai") {
    for (let i = 0; i < 52; i++) {
      start = performance.now();
      tw.Agent.fromJSON(data, options);
      times.push(ms(start));
    }
  } else if (mode === "yaml") {
    const text = fs.readFileSync(exampleYamlFile, "utf8");
    start = performance.now();
    const { agentToYaml, parseAgent } = require("toolwright/yaml") as Yaml;
    out.requireYamlMs = ms(start);
    for (let i = 0; i < 52; i++) {
      start = performance.now();
      parseAgent(text, { registry, chatGenerator: model });
      times.push(ms(start));
    }
  } else if (mode === "staged") {
    // Each one-time part on its own, in the order a first fromJSON meets them.
    start = performance.now();
    const { z } = require("zod") as typeof import("zod");
    out.zodMs = ms(start);
    start = performance.now();
    require("@huggingface/jinja");
    out.jinjaMs = ms(start);
    start = performance.now();
    require(path.join(dist, "ajv.js"));
    out.ajvMs = ms(start);
    start = performance.now();
    tw.promptTemplate(data.systemPrompt!, { name: "systemPrompt" });
    tw.promptTemplate(data.userPrompt!, { name: "userPrompt" });
    out.firstTemplatesMs = ms(start);
    start = performance.now();
    tw.promptTemplate(data.systemPrompt!, { name: "systemPrompt" });
    tw.promptTemplate(data.userPrompt!, { name: "userPrompt" });
    out.secondTemplatesMs = ms(start);
    // The definition format's zod schema is built at the first read; a minimal definition is little else.
    start = performance.now();
    tw.Agent.fromJSON({ version: 1, chatGenerator: { type: "Bench" } }, { registry: { chatGenerators: { Bench: model } } });
    out.firstMinimalMs = ms(start);
    start = performance.now();
    tw.Agent.fromJSON({ version: 1, chatGenerator: { type: "Bench" } }, { registry: { chatGenerators: { Bench: model } } });
    out.secondMinimalMs = ms(start);
    // The first state type makes ajv's instance (formats, the precompiled meta-schema) and compiles one validator.
    start = performance.now();
    tw.Agent.fromJSON({ version: 1, chatGenerator: { type: "Bench" }, stateSchema: { note: { type: { type: "string" } } } }, { registry: { chatGenerators: { Bench: model } } });
    out.firstStateKeyMs = ms(start);
    start = performance.now();
    tw.Agent.fromJSON({ version: 1, chatGenerator: { type: "Bench" }, stateSchema: { note: { type: { type: "string" } } } }, { registry: { chatGenerators: { Bench: model } } });
    out.secondStateKeyMs = ms(start);
    const types = Object.values(data.stateSchema!).map((entry) => entry.type!);
    start = performance.now();
    for (const type of types) z.fromJSONSchema(type as never);
    out.firstFromJSONSchemaMs = ms(start);
    start = performance.now();
    for (const type of types) z.fromJSONSchema(type as never);
    out.secondFromJSONSchemaMs = ms(start);
    start = performance.now();
    require("openai");
    out.openaiSdkMs = ms(start);
    for (let i = 0; i < 52; i++) {
      start = performance.now();
      tw.Agent.fromJSON(data, { registry, chatGenerator: model });
      times.push(ms(start));
    }
  } else {
    throw new Error(`unknown child mode ${mode}`);
  }
  const after = process.memoryUsage();
  out.firstMs = times[0];
  out.secondMs = times[1];
  out.steadyUs = median(times.slice(2)) * 1000;
  out.heapGrowthMiB = (after.heapUsed - before.heapUsed) / 2 ** 20;
  out.rssGrowthMiB = (after.rss - before.rss) / 2 ** 20;
  out.loaded = loadedNow();
  console.log(JSON.stringify(out));
}

// ---------------------------------------------------------------------------------------------
// The parent.

const processes = 5;

interface ChildFigures {
  readonly runs: Record<string, unknown>[];
  readonly peakRssMiB: number;
  readonly wallMs: number;
}

async function childFigures(mode: string, dataFile: string): Promise<ChildFigures> {
  const runs: Record<string, unknown>[] = [];
  const rss: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < processes; i++) {
    const run = await runCommand({ label: `definition child ${mode}`, script: __filename, args: ["child", mode, dataFile], cwd: root });
    runs.push(JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>);
    rss.push(run.peakRssMiB ?? Number.NaN);
    wall.push(run.wallSeconds * 1000);
  }
  return { runs, peakRssMiB: median(rss), wallMs: median(wall) };
}

function med(figures: ChildFigures, key: string): number {
  return median(figures.runs.map((run) => run[key] as number));
}

/** What a fresh `node -e` loads for `script` (test/startup's way), and how long its requires took. */
function importCheck(script: string): { loaded: string[]; ms: number; rssMiB: number } {
  const report = `
    const seen = new Set();
    for (const file of Object.keys(require.cache)) {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (m) seen.add(m[1]);
      else if (require("node:path").dirname(file) === ${JSON.stringify(dist)}) seen.add("toolwright:" + require("node:path").basename(file));
    }
    console.log(JSON.stringify({ loaded: [...seen].sort(), ms, rssMiB: process.resourceUsage().maxRSS / 1024 }));`;
  const runs = Array.from({ length: processes }, () => {
    const out = execFileSync(process.execPath, ["-e", `const t0 = performance.now(); ${script}; const ms = performance.now() - t0; ${report}`], { cwd: root, encoding: "utf8" });
    return JSON.parse(out.trim().split("\n").at(-1)!) as { loaded: string[]; ms: number; rssMiB: number };
  });
  return { loaded: runs[0]!.loaded, ms: median(runs.map((r) => r.ms)), rssMiB: median(runs.map((r) => r.rssMiB)) };
}

interface Setup {
  readonly label: string;
  /** Ops per batch (each op timed alone). */
  readonly batch: number;
  op(): unknown;
}

const rounds = 9;

/** Interleaved rounds; per setup the median over rounds of each round's median op, in µs. */
async function measure(list: readonly Setup[], gc: () => void): Promise<Map<string, number[]>> {
  const perRound = new Map<string, number[]>(list.map((s) => [s.label, []]));
  for (const setup of list) for (let i = 0; i < Math.max(50, setup.batch); i++) await setup.op();
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < list.length; k++) {
      const setup = list[(k + round) % list.length]!;
      gc();
      const times: number[] = [];
      for (let i = 0; i < setup.batch; i++) {
        const start = performance.now();
        await setup.op();
        times.push((performance.now() - start) * 1000);
      }
      perRound.get(setup.label)!.push(median(times));
    }
  }
  return perRound;
}

function row(label: string, values: readonly number[], note = ""): string {
  return `| ${label} | ${fmt(median(values))} | ${fmt(Math.min(...values))}–${fmt(Math.max(...values))} |${note ? ` ${note} |` : ""}`;
}

/** Lines for BENCHMARKS.md. */
export async function benchDefinition(print: (line: string) => void): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  process.env.OPENAI_API_KEY ??= "sk-bench-not-a-key";

  const tw = require("toolwright") as Toolwright;
  const { agentToYaml, parseAgent } = require("toolwright/yaml") as Yaml;
  const { parse: parseYaml, parseDocument } = require("yaml") as typeof import("yaml");
  const { z } = require("zod") as typeof import("zod");
  require("../examples/yaml-agent/tools.generated");
  const { DeskTools, latestTickets } = require("../examples/yaml-agent/deskTools") as typeof import("../examples/yaml-agent/deskTools");
  const { demoStore, Ticket } = require("../examples/support/ticketStore") as typeof import("../examples/support/ticketStore");
  const { ScriptedChatGenerator } = require("toolwright/testing") as typeof import("toolwright/testing");
  // The format check and the state types, from the source modules (their own copies of the lazy zod schema and ajv).
  const { readDefinition } = require("../src/definition/readDefinition") as typeof import("../src/definition/readDefinition");
  const { stateSchemaFromDefinition } = require("../src/definition/stateDefinition") as typeof import("../src/definition/stateDefinition");
  const { readYamlDefinition } = require("../src/yaml/yamlDocument") as typeof import("../src/yaml/yamlDocument");

  const yamlText = fs.readFileSync(exampleYamlFile, "utf8");
  const data = parseYaml(yamlText) as AgentDefinition;
  const json = JSON.stringify(data);
  const dataFile = path.join(os.tmpdir(), `toolwright-bench-definition-${process.pid}.json`);
  fs.writeFileSync(dataFile, json);

  // ---- Fresh processes.
  print(`### In a fresh process (${processes} processes per figure, medians)`);
  const imports = [
    { label: 'require("toolwright")', script: 'require("toolwright")' },
    { label: 'require("toolwright/yaml")', script: 'require("toolwright/yaml")' },
    { label: 'require("toolwright") + Agent.fromJSON(example, scripted model given)', script: `const tw = require("toolwright"); require(${JSON.stringify(path.join(exampleModules, "tools.generated.js"))}); const { DeskTools, latestTickets } = require(${JSON.stringify(path.join(exampleModules, "deskTools.js"))}); tw.Agent.fromJSON(JSON.parse(require("node:fs").readFileSync(${JSON.stringify(dataFile)}, "utf8")), { registry: { classes: { DeskTools: () => new DeskTools({}) }, handlers: { latestTickets } }, chatGenerator: { run: async () => ({ replies: [] }) } })` },
  ];
  print("| what the process ran | packages and build files loaded | require + run, ms | peak RSS of the process, MiB |");
  print("|---|---|---|---|");
  for (const { label, script } of imports) {
    const check = importCheck(script);
    print(`| ${label} | ${check.loaded.join(", ")} | ${fmt(check.ms)} | ${fmt(check.rssMiB)} |`);
    if (label === 'require("toolwright")') {
      const bad = check.loaded.filter((name) => ["zod", "yaml", "@huggingface/jinja", "openai", "ajv", "toolwright:ajv.js"].includes(name));
      if (bad.length > 0) print(`**importing toolwright loaded ${bad.join(", ")}**`);
    }
  }

  const scripted = await childFigures("scripted", dataFile);
  const openai = await childFigures("openai", dataFile);
  const yaml = await childFigures("yaml", dataFile);
  const staged = await childFigures("staged", dataFile);
  print("");
  print("| first call of the process | 1st call, ms | 2nd call, ms | calls 3–52 (JIT still warming), µs | peak RSS, MiB | heap growth over the 52 calls, MiB |");
  print("|---|---|---|---|---|---|");
  for (const [label, f] of [
    ["Agent.fromJSON(example), scripted model given", scripted],
    ["Agent.fromJSON(example), OpenAIChatGenerator built from it", openai],
    ["parseAgent(agent.yaml text), scripted model given (require of toolwright/yaml not in it)", yaml],
  ] as const) {
    print(`| ${label} | ${fmt(med(f, "firstMs"))} | ${fmt(med(f, "secondMs"))} | ${fmt(med(f, "steadyUs"))} | ${fmt(f.peakRssMiB)} | ${fmt(med(f, "heapGrowthMiB"))} |`);
  }
  print(`loaded after the calls: scripted ${(scripted.runs[0]!.loaded as string[]).join(", ")}; openai adds ${(openai.runs[0]!.loaded as string[]).filter((p) => !(scripted.runs[0]!.loaded as string[]).includes(p)).join(", ") || "nothing"}; yaml adds ${(yaml.runs[0]!.loaded as string[]).filter((p) => !(scripted.runs[0]!.loaded as string[]).includes(p)).join(", ") || "nothing"} (require("toolwright/yaml") ${fmt(med(yaml, "requireYamlMs"))} ms)`);
  print("");
  print("The first fromJSON taken apart (a staged process: each one-time part on its own, in the order a first call meets it):");
  print("| part | ms |");
  print("|---|---|");
  for (const [label, key] of [
    ['require("zod")', "zodMs"],
    ['require("@huggingface/jinja")', "jinjaMs"],
    ["require(dist/ajv.js) (the bundled ajv, precompiled meta-schema)", "ajvMs"],
    ["first promptTemplate() of systemPrompt + userPrompt (jinja loaded)", "firstTemplatesMs"],
    ["second promptTemplate() of the two", "secondTemplatesMs"],
    ["first Agent.fromJSON of a minimal definition (builds the format's zod schema)", "firstMinimalMs"],
    ["second Agent.fromJSON of a minimal definition", "secondMinimalMs"],
    ["first with one string state key (makes ajv's instance, meta-checks and compiles the type, z.fromJSONSchema)", "firstStateKeyMs"],
    ["second with one string state key (compile cached by the schema's text)", "secondStateKeyMs"],
    ["first z.fromJSONSchema of the 4 state types", "firstFromJSONSchemaMs"],
    ["second z.fromJSONSchema of the 4 state types", "secondFromJSONSchemaMs"],
    ['require("openai") (what the OpenAI generator adds)', "openaiSdkMs"],
    ["then the first Agent.fromJSON(example) (ajv compiles 4 types, tools, Agent)", "firstMs"],
    ["then the second", "secondMs"],
  ] as const) {
    print(`| ${label} | ${fmt(med(staged, key), 2)} |`);
  }
  fs.rmSync(dataFile, { force: true });

  // ---- Steady state, this process.
  const store = demoStore();
  const registry: AgentRegistry = { classes: { DeskTools: () => new DeskTools(store) }, handlers: { latestTickets } };
  const model = textModel(tw);
  const given = { registry, chatGenerator: model };
  const fromData = tw.Agent.fromJSON(data, given);
  const systemSource = data.systemPrompt!;
  const userSource = data.userPrompt!;
  const systemTemplate = tw.promptTemplate(systemSource, { name: "systemPrompt" });
  const userTemplate = tw.promptTemplate(userSource, { name: "userPrompt" });
  const deskState = {
    customer_id: { type: z.string() },
    customer_name: { type: z.string() },
    tickets: { type: z.array(Ticket), handler: latestTickets },
    closed: { type: z.array(Ticket) },
    escalation: { type: z.object({ ticketId: z.string(), reason: z.string(), queue: z.string() }) },
  } satisfies StateSchema;
  const codeOptions = {
    name: "support-desk",
    chatGenerator: new ScriptedChatGenerator([tw.ChatMessage.fromAssistant("Done.")]),
    tools: [new DeskTools(store)],
    stateSchema: deskState,
    systemPrompt: systemTemplate,
    userPrompt: userTemplate,
    exitConditions: ["text", "escalate"] as const,
    maxAgentSteps: 8,
  };
  const codeBuilt = new tw.Agent(codeOptions);
  const codeRegistry: AgentRegistry = { handlers: { latestTickets } };
  const codeJSON = codeBuilt.toJSON({ registry: codeRegistry });
  const stateTypes = Object.values(data.stateSchema!).map((entry) => entry.type!);
  const readData = readDefinition(data);
  const variables = { company: "Acme Printers", request: "My printer works again, please close that ticket." };
  const renderInput = (count: number) => ({ customer_id: "c-42", customer_name: "Ada", tickets: tickets(count), messages: [], ...variables });
  const render0 = renderInput(0);
  const render20 = renderInput(20);
  const render200 = renderInput(200);
  const renderedSystem = systemTemplate.render(render0);
  const renderedUser = userTemplate.render(render0);

  const runAgent = (templated: boolean) =>
    new tw.Agent({ chatGenerator: model, stateSchema: deskState, systemPrompt: templated ? systemTemplate : renderedSystem, userPrompt: templated ? userTemplate : renderedUser });
  const templatedAgent = runAgent(true);
  const plainAgent = runAgent(false);
  const runInput = (count: number) => ({ customer_id: "c-42", customer_name: "Ada", ...(count > 0 && { tickets: tickets(count) }), promptVariables: variables });
  const input0 = runInput(0);
  const input20 = runInput(20);

  const sections: { title: string; setups: Setup[] }[] = [
    {
      title: "Agent.fromJSON and its parts (steady state)",
      setups: [
        { label: "Agent.fromJSON(example), chat generator given", batch: 200, op: () => tw.Agent.fromJSON(data, given) },
        { label: "Agent.fromJSON(example), OpenAIChatGenerator built from the definition", batch: 200, op: () => tw.Agent.fromJSON(data, { registry }) },
        { label: "new Agent(the same parts made in code; templates compiled once, outside)", batch: 400, op: () => new tw.Agent(codeOptions) },
        { label: "part: the format check (readDefinition: zod parse of the definition)", batch: 400, op: () => readDefinition(data) },
        { label: "part: state types (4 × ajv meta-check, cached compile, z.fromJSONSchema)", batch: 400, op: () => stateSchemaFromDefinition(readData.stateSchema, registry, undefined) },
        { label: "part: z.fromJSONSchema of the 4 state types alone", batch: 400, op: () => stateTypes.map((type) => z.fromJSONSchema(type as never)) },
        { label: "part: promptTemplate() of systemPrompt + userPrompt", batch: 400, op: () => [tw.promptTemplate(systemSource, { name: "systemPrompt" }), tw.promptTemplate(userSource, { name: "userPrompt" })] },
      ],
    },
    {
      title: "toJSON",
      setups: [
        { label: "agent.toJSON({ registry }) of the code-built Agent (decorated tools, zod state, handler, templates)", batch: 400, op: () => codeBuilt.toJSON({ registry: codeRegistry }) },
        { label: "agent.toJSON() of a fromJSON Agent (a copy of its definition)", batch: 400, op: () => fromData.toJSON() },
        { label: "JSON.stringify(agent) of the fromJSON Agent", batch: 400, op: () => JSON.stringify(fromData) },
        { label: "agentToYaml(the code-built Agent, { registry })", batch: 200, op: () => agentToYaml(codeBuilt, { registry: codeRegistry }) },
        { label: "agentToYaml(the fromJSON Agent)", batch: 200, op: () => agentToYaml(fromData) },
      ],
    },
    {
      title: "YAML against JSON (the same definition; chat generator given)",
      setups: [
        { label: "parseAgent(yaml text)", batch: 200, op: () => parseAgent(yamlText, given) },
        { label: "Agent.fromJSON(JSON.parse(json))", batch: 200, op: () => tw.Agent.fromJSON(JSON.parse(json), given) },
        { label: "part: readYamlDefinition (YAML parse, data, positions ready)", batch: 400, op: () => readYamlDefinition(yamlText, "agent.yaml") },
        { label: "part: yaml's parseDocument alone", batch: 400, op: () => parseDocument(yamlText) },
        { label: "part: JSON.parse(json) alone", batch: 400, op: () => JSON.parse(json) },
      ],
    },
    {
      title: "Prompt templates",
      setups: [
        { label: "promptTemplate(systemPrompt): compile", batch: 400, op: () => tw.promptTemplate(systemSource, { name: "systemPrompt" }) },
        { label: "promptTemplate(userPrompt): compile", batch: 400, op: () => tw.promptTemplate(userSource, { name: "userPrompt" }) },
        { label: "render systemPrompt, 0 tickets", batch: 400, op: () => systemTemplate.render(render0) },
        { label: "render systemPrompt, 20 tickets", batch: 400, op: () => systemTemplate.render(render20) },
        { label: "render systemPrompt, 200 tickets", batch: 200, op: () => systemTemplate.render(render200) },
        { label: "render userPrompt", batch: 400, op: () => userTemplate.render(render0) },
      ],
    },
    {
      title: "A 1-step run (text answer), templated prompts against the same text as plain strings",
      setups: [
        { label: "plain string system + user prompt, 0 tickets in state", batch: 400, op: () => plainAgent.run(input0) },
        { label: "templated system + user prompt, 0 tickets in state", batch: 400, op: () => templatedAgent.run(input0) },
        { label: "plain string system + user prompt, 20 tickets in state", batch: 400, op: () => plainAgent.run(input20) },
        { label: "templated system + user prompt, 20 tickets in state", batch: 400, op: () => templatedAgent.run(input20) },
      ],
    },
  ];
  const templatedCheck = await templatedAgent.run(input20);
  if (!templatedCheck.messages[0]!.text!.includes("T-20 (open)")) throw new Error(`unexpected system prompt: ${templatedCheck.messages[0]!.text}`);
  if (JSON.stringify(codeJSON).length < 100) throw new Error("the code-built Agent's definition is unexpectedly short");

  for (const { title, setups } of sections) {
    const perRound = await measure(setups, gc);
    print("");
    print(`### ${title}`);
    print("| op | µs per op (median over rounds) | range over rounds |");
    print("|---|---|---|");
    for (const setup of setups) print(row(setup.label, perRound.get(setup.label)!));
  }

  // ---- The heap an Agent keeps.
  const keep = 300;
  const retained = (make: () => unknown): number => {
    const kept: unknown[] = [];
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < keep; i++) kept.push(make());
    gc();
    gc();
    const after = process.memoryUsage().heapUsed;
    if (kept.length !== keep) throw new Error("lost");
    return (after - before) / keep / 1024;
  };
  print("");
  print(`### Heap kept per object (${keep} kept alive, forced gc, median of 5)`);
  print("| object | KiB each |");
  print("|---|---|");
  for (const [label, make] of [
    ["Agent from Agent.fromJSON(example) (its definition, zod state types, compiled templates, tools)", () => tw.Agent.fromJSON(data, given)],
    ["Agent from new Agent(the same parts made in code, shared)", () => new tw.Agent(codeOptions)],
    ["compiled systemPrompt template", () => tw.promptTemplate(systemSource, { name: "systemPrompt" })],
    ["the 4 state types from z.fromJSONSchema", () => stateTypes.map((type) => z.fromJSONSchema(type as never))],
  ] as const) {
    print(`| ${label} | ${fmt(median(Array.from({ length: 5 }, () => retained(make))))} |`);
  }
}

if (require.main === module && process.argv[2] === "child") {
  child(process.argv[3]!, process.argv[4]!).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
