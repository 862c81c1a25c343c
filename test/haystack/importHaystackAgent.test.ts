import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../codegen/cli";
import { ChatMessage, type MergeHandler, Tool, type ConfirmationStrategy } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { importHaystackAgent, loadAgent } from "toolwright/yaml";
import { parse as loadYaml } from "yaml";
import { loadFresh } from "../codegen/helpers/loadFresh";
import { captured, TempProject } from "../codegen/helpers/tempProject";
import { haystackFixture, haystackVersions } from "./haystackFixtures";

const fixtures = path.join(__dirname, "importFixtures");
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), "utf8");
const lines = (items: readonly { line: number; column: number; path: string; kind: string; message: string }[]) => items.map((h) => `${h.line}:${h.column} ${h.path} [${h.kind}] ${h.message}`);

type Loaded = { HaystackTools: new () => object; handlers?: Record<string, MergeHandler>; confirmationStrategies?: Record<string, ConfirmationStrategy>; asked?: string[] };

// Converts with the CLI into the project's src/, ports the bodies, runs codegen and loads the modules fresh.
async function convertAndPort(project: TempProject, yamlFile: string, ports: Record<string, string>, yamlText = fixture(yamlFile), component?: string): Promise<Loaded> {
  project.write(yamlFile, yamlText);
  const out = captured();
  expect(await main(["import-haystack", yamlFile, "--out", "src", ...(component ? ["--component", component] : [])], out, captured(), project.dir)).toBe(0);
  for (const [from, to] of Object.entries(ports)) project.edit("src/tools.ts", from, to);
  const codegenErr = captured();
  expect(await main(["codegen"], captured(), codegenErr, project.dir)).toBe(0);
  expect(codegenErr.text).toBe("");
  return loadFresh<Loaded>(project, "src/tools.ts");
}

const call = (id: string, toolName: string, args: Record<string, unknown>) => ChatMessage.fromAssistant(undefined, { toolCalls: [{ id, toolName, arguments: args }] });
// The line of a tool's stub body that throws until the tool is ported.
const stubLine = (text: string, tool: string) => text.split("\n").find((line) => line.startsWith(`    throw new Error("Tool '${tool}' is not ported yet`))!;

describe("importHaystackAgent", () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject({});
  });
  afterEach(() => project.dispose());

  it("converts a Haystack 2.31 Agent: generator settings, a toolset, state schema with handlers, prompts, exit conditions and a confirmation strategy", () => {
    const result = importHaystackAgent(fixture("agent-2.31.yaml"), { file: "agent-2.31.yaml" });
    expect(result.definition).toEqual({
      version: 1,
      // OpenAIChatGenerator.to_dict (v2.31.0 openai.py:272): timeout in seconds becomes milliseconds; api_key's env var the apiKey.
      chatGenerator: { type: "OpenAIChatGenerator", options: { model: "gpt-4o-mini", apiKey: { env: "OPENAI_API_KEY" }, generationKwargs: { temperature: 0 }, timeout: 30000, maxRetries: 2 } },
      // Haystack's Agent flattens a Toolset into its tools (serialize_tools_or_toolset keeps the boundary only in the YAML).
      tools: [{ class: "HaystackTools" }, { tool: "parrot", description: "This is a parrot." }],
      systemPrompt: "You help {{ '{' }}{ user_name }}.", // 2.x sent it as written (no {% message %} block)
      userPrompt: "Question: {{ query }}",
      stateSchema: {
        documents: { type: { type: "array", items: { type: "object" } }, handler: "mergeLists" },
        notes: { type: { type: "array", items: { type: "string" } }, handler: "keepLast" },
        user_id: { type: { type: "string" } },
      },
      exitConditions: ["text", "finish"],
      maxAgentSteps: 10,
      raiseOnToolInvocationFailure: false,
      toolConcurrency: 3, // tool_invoker_kwargs.max_workers
      confirmationStrategies: { add_note: { strategy: "confirmNeverAsk" } },
    });
    expect(result.toolsModule).toBe(fixture("agent-2.31.tools.ts.txt"));
    expect(lines(result.handWork)).toEqual([
      "33:11 init_parameters.confirmation_strategies.add_note.init_parameters.confirmation_ui [confirmation] Confirmation UI haystack.human_in_the_loop.user_interfaces.SimpleConsoleUI asks through Python: write the ask function of confirmationStrategies.confirmNeverAsk in the tools module (or use strategy: deferred to pause the run and ask later).",
      "46:23 init_parameters.required_variables [setting] required_variables is none (null): Haystack renders a missing variable as an empty string; toolwright fails the run on any missing variable: give every variable at run time, or write {{ x | default('') }}.",
      "50:13 init_parameters.state_schema.documents.type [setting] State key 'documents' holds haystack.dataclasses.document.Document objects, typed here as any object: describe their fields in its JSON Schema.",
      "57:18 init_parameters.system_prompt [setting] Haystack 2.x sends a system_prompt without a {% message %} block as written, so its {{ }} and {% %} were escaped to reach the model unchanged; write it unescaped to render them, as Haystack main does.",
      "59:44 init_parameters.tool_invoker_kwargs.enable_streaming_callback_passthrough [setting] tool_invoker_kwargs.enable_streaming_callback_passthrough has no toolwright option: tools report progress through context.reportProgress instead.",
      "64:17 init_parameters.tools[0].data.function [function] Port the Python function my_tools.weather_function of tool 'weather_tool' to the body of its @tool method.",
      "90:21 init_parameters.tools[1].data.tools[0].data.function [function] Port the Python function my_tools.search_docs of tool 'search_docs' to the body of its @tool method.",
      "119:21 init_parameters.tools[1].data.tools[1].data.function [function] Port the Python function my_tools.add_note of tool 'add_note' to the body of its @tool method.",
      "124:24 init_parameters.tools[1].data.tools[1].data.outputs_to_state.notes.handler [handler] Port the Python handler my_handlers.keep_last to keepLast (current, incoming) => merged in the tools module.",
      "136:21 init_parameters.tools[1].data.tools[2].data.function [function] Port the Python function my_tools.finish of tool 'finish' to the body of its @tool method.",
      "163:11 init_parameters.tools[2].type [componentTool] Tool 'parrot' is a ComponentTool (it runs a Haystack component): build it in TypeScript and register it as registry.tools.parrot.",
    ]);
  });

  it("converts a Haystack main Agent inside a pipeline: hooks give the confirmation strategies and the token budget", () => {
    const result = importHaystackAgent(fixture("pipeline-main.yaml"), { file: "pipeline-main.yaml" });
    expect(result.definition).toEqual({
      version: 1,
      name: "assistant",
      chatGenerator: { type: "OpenAIChatGenerator", options: { model: "gpt-5-mini", apiKey: { env: "DESK_OPENAI_KEY" }, baseURL: "http://127.0.0.1:9/v1", toolsStrict: true } },
      tools: [{ class: "HaystackTools" }, { tool: "read_file", description: "Read a file." }],
      systemPrompt: "You are the support desk.",
      stateSchema: {
        attempts: { type: { type: ["integer", "null"] } }, // typing.Optional[int]
        ticket: { type: { type: "object", additionalProperties: { type: "string" } }, handler: "replaceValues" },
      },
      exitConditions: ["text"],
      maxAgentSteps: 20,
      raiseOnToolInvocationFailure: true,
      toolConcurrency: 2, // tool_concurrency_limit
      // A tuple key is a JSON-array string in main (strategies.py _serialize_confirmation_strategies): one strategy for both tools.
      confirmationStrategies: { close_ticket: { strategy: "confirmAskOnce" }, refund: { strategy: "confirmAskOnce" } },
      budget: { maxTotalTokens: 50000 }, // TokenBudgetHook at before_llm
    });
    expect(result.toolsModule).toBe(fixture("pipeline-main.tools.ts.txt"));
    expect(lines(result.handWork)).toEqual([
      "8:3 components [setting] Only the Agent 'assistant' is converted; the pipeline's other components (router (ConditionalRouter)) and its connections stay in Haystack or become code around agent.run.",
      '12:25 components.assistant.init_parameters.chat_generator.init_parameters.api_base_url [setting] The generator\'s base URL http://127.0.0.1:9/v1 is kept as baseURL; allow it when loading: loadAgent(file, { allowedBaseURLs: ["http://127.0.0.1:9/v1"] }).',
      '15:15 components.assistant.init_parameters.chat_generator.init_parameters.api_key.env_vars[0] [setting] The API key is read from DESK_OPENAI_KEY; allow it when loading: loadAgent(file, { allowedEnv: ["DESK_OPENAI_KEY"] }).',
      "34:17 components.assistant.init_parameters.hooks.after_tool[0].type [hook] Hook my_hooks.TrimResults at after_tool has no data form in toolwright: write it as middleware (its afterTool hook) and pass it to loadAgent(file, { middleware }).",
      '49:21 components.assistant.init_parameters.hooks.before_tool[0].init_parameters.confirmation_strategies["[\\"close_ticket\\", \\"refund\\"]"].init_parameters.confirmation_ui [confirmation] Confirmation UI haystack.hooks.human_in_the_loop.user_interfaces.RichConsoleUI asks through Python: write the ask function of confirmationStrategies.confirmAskOnce in the tools module (or use strategy: deferred to pause the run and ask later).',
      "75:21 components.assistant.init_parameters.tools[0].data.function [function] Port the Python function desk.tools.close_ticket of tool 'close_ticket' to the body of its @tool method.",
      "83:22 components.assistant.init_parameters.tools[0].data.outputs_to_string.handler [handler] Port the Python handler desk.format.ticket_text to ticketText (result) => string in the tools module.",
      "98:27 components.assistant.init_parameters.tools[1].data.async_function [function] Port the Python function desk.tools.refund of tool 'refund' to the body of its @tool method.",
      "128:15 components.assistant.init_parameters.tools[2].type [mcpTool] Tool 'read_file' is an MCPTool (a tool of an MCP server; connect it with toolwright/mcp): build it in TypeScript and register it as registry.tools.read_file.",
    ]);
  });

  it("maps OpenAIResponsesChatGenerator and lists an API key read from several variables", () => {
    const yaml = `type: haystack.components.agents.agent.Agent
init_parameters:
  chat_generator:
    type: haystack.components.generators.chat.openai_responses.OpenAIResponsesChatGenerator
    init_parameters:
      api_key: { env_vars: [OPENAI_API_KEY, AZURE_KEY], strict: false, type: env_var }
      model: gpt-5-mini
      streaming_callback: haystack.components.generators.utils.print_streaming_chunk
`;
    const result = importHaystackAgent(yaml);
    expect(result.definition).toEqual({ version: 1, chatGenerator: { type: "OpenAIResponsesChatGenerator", options: { model: "gpt-5-mini", apiKey: { env: "OPENAI_API_KEY" } } } });
    expect(lines(result.handWork)).toEqual([
      "6:28 init_parameters.chat_generator.init_parameters.api_key.env_vars [setting] Haystack reads the first set of OPENAI_API_KEY, AZURE_KEY; toolwright reads only OPENAI_API_KEY (apiKey.env): set it, or change the name.",
      "8:27 init_parameters.chat_generator.init_parameters.streaming_callback [generator] The generator's streaming callback haystack.components.generators.utils.print_streaming_chunk is code: pass streamingCallback to loadAgent or to agent.run.",
    ]);
    expect(result.toolsModule).toBe("// Written by `toolwright import-haystack` from agent.yaml. Port each body, then run `toolwright codegen`.\n");
  });

  it("gives a 2.31 definition that loads and runs once its tools are ported: state injected and merged, the exit tool ends the run", async () => {
    const stubs = importHaystackAgent(fixture("agent-2.31.yaml")).toolsModule;
    const { HaystackTools, handlers, confirmationStrategies } = await convertAndPort(project, "agent-2.31.yaml", {
      [stubLine(stubs, "search_docs")]: "    return { documents: [{ id: `d-${user}`, content: query }], summary: `1 document for ${query}` };",
      [stubLine(stubs, "add_note")]: "    return [text];",
      [stubLine(stubs, "finish")]: "    return answer;",
      '  throw new Error("Handler \'keepLast\' is not ported yet: port the Python function my_handlers.keep_last.");': "  return incoming;",
    });
    const model = new ScriptedChatGenerator([call("c1", "search_docs", { query: "printers" }), call("c2", "add_note", { text: "first" }), call("c3", "add_note", { text: "second" }), call("c4", "finish", { answer: "done" })]);
    const parrot = new Tool({ name: "parrot", description: "Parrot.", parameters: { type: "object", properties: { parrot: { type: "string" } } }, function: ({ parrot: said }) => said });
    const agent = await loadAgent(project.path("src/agent.yaml"), {
      chatGenerator: model,
      registry: { classes: { HaystackTools: () => new HaystackTools() }, tools: { parrot }, handlers, confirmationStrategies },
    });
    const result = await agent.run({ user_id: "u-7", promptVariables: { user_name: "Ada", query: "Find printers" } });

    expect(result.exitReason).toBe("finish"); // the exit-condition tool, as Haystack main reports it
    expect(result.documents).toEqual([{ id: "d-u-7", content: "printers" }]); // inputs_from_state user_id → user; outputs_to_state source documents, merge_lists
    expect(result.notes).toEqual(["second"]); // keep_last, ported: the handler replaced the first note
    const first = model.requests[0]!;
    // Haystack 2.x sends a system_prompt without {% message %} as written; the converter escaped it (hand work says so).
    expect(first.messages.map((m) => [m.role, m.text])).toEqual([["system", "You help {{ user_name }}."], ["user", "Question: Find printers"]]);
    expect(first.tools!.map((t) => t.name)).toEqual(["weather_tool", "search_docs", "add_note", "finish", "parrot"]);
    // The state-filled parameter is hidden from the model, as Haystack removes inputs_from_state parameters.
    expect(first.tools!.find((t) => t.name === "search_docs")!.parameters).toEqual({
      type: "object",
      properties: { query: { type: "string" }, filters: { type: "object", properties: { tags: { type: "array", items: { type: "string" } }, year: { type: "integer" } }, additionalProperties: false } },
      required: ["query"],
      additionalProperties: false,
    });
    expect(result.messages[3]!.toolCallResult!.result).toBe("1 document for printers"); // outputs_to_string source summary
  });

  it("gives a main definition that loads and runs once ported: the ConfirmationHook's AskOncePolicy asks once, the state-filled ticket is replaced", async () => {
    const stubs = importHaystackAgent(fixture("pipeline-main.yaml")).toolsModule;
    const { HaystackTools, handlers, confirmationStrategies, asked } = await convertAndPort(project, "pipeline-main.yaml", {
      [stubLine(stubs, "close_ticket")]: '    return { ticket: { ...ticket_data, id: ticket_id, status: "closed" } };',
      '  throw new Error("Handler \'ticketText\' is not ported yet: port the Python function desk.format.ticket_text.");': "  return `Ticket ${(result as { ticket: { id: string } }).ticket.id} closed.`;",
      "      throw new Error(\"Confirmation strategy 'confirmAskOnce' has no ask function yet: write one in place of the Haystack UI haystack.hooks.human_in_the_loop.user_interfaces.RichConsoleUI.\");":
        '      asked.push(_request.toolName);\n      return { action: "confirm" as const };',
      "/** The confirmation strategies": "export const asked: string[] = [];\n\n/** The confirmation strategies",
    });
    const model = new ScriptedChatGenerator([call("c1", "close_ticket", { ticket_id: "T-1" }), call("c2", "close_ticket", { ticket_id: "T-1" }), ChatMessage.fromAssistant("Closed.")]);
    const readFile = new Tool({ name: "read_file", description: "Read a file.", parameters: { type: "object", properties: {} }, function: () => "" });
    const agent = await loadAgent(project.path("src/agent.yaml"), {
      chatGenerator: model,
      allowedEnv: ["DESK_OPENAI_KEY"],
      allowedBaseURLs: ["http://127.0.0.1:9/v1"],
      registry: { classes: { HaystackTools: () => new HaystackTools() }, tools: { read_file: readFile }, handlers, confirmationStrategies },
    });
    const result = await agent.run({ ticket: { id: "T-1", status: "open", owner: "ada" } });

    expect(result.exitReason).toBe("text");
    expect(result.ticket).toEqual({ id: "T-1", status: "closed", owner: "ada" }); // replace_values
    expect(result.messages[2]!.toolCallResult!.result).toBe("Ticket T-1 closed."); // the outputs_to_string handler
    expect(asked).toEqual(["close_ticket"]); // AskOncePolicy: the same arguments are not asked again
  });

  // The YAML Haystack itself wrote (test/haystack/recorder/record.py, scenarios agent-yaml and
  // pipeline-yaml: Agent.to_dict() through YamlMarshaller, and Pipeline.dumps()). Its generator is
  // the recorder's own component (no OpenAI package runs here), so the generator's settings are
  // covered by the YAML above; everything else is what each version writes.
  describe.each(haystackVersions)("on the YAML Haystack %s wrote", (version) => {
    const agentYaml = haystackFixture(version, "agent-yaml");
    const hooks = agentYaml.form === "hooks";
    const expected = {
      version: 1,
      chatGenerator: { type: "RecorderChatGenerator" },
      tools: [{ class: "HaystackTools" }],
      // 2.x sends a system_prompt without {% message %} as written: escaped to stay literal.
      systemPrompt: hooks ? "You help {{ user_name }}." : "You help {{ '{' }}{ user_name }}.",
      userPrompt: hooks ? '{% message role="user" %}Question: {{ query }}{% endmessage %}' : "Question: {{ query }}",
      stateSchema: {
        documents: { type: { type: "array", items: { type: "object" } } },
        notes: { type: { type: "array", items: { type: "string" } }, handler: "keepLast" },
        user: { type: { type: "string" } },
      },
      exitConditions: ["text", "finish"],
      maxAgentSteps: 10,
      raiseOnToolInvocationFailure: false,
      toolConcurrency: 3,
      confirmationStrategies: { add_note: { strategy: "confirmAskOnce" } },
      ...(hooks && { budget: { maxTotalTokens: 5000 } }),
    };
    const handWorkKinds = [
      "generator",
      "confirmation",
      "setting", // Document objects
      ...(hooks ? [] : ["setting"]), // the escaped system_prompt
      "function",
      "function",
      "function",
      "handler",
      "function",
    ];

    it("converts the Agent: a toolset flattened, state schema with handlers, prompts, exit conditions, concurrency, confirmation (and main's token budget)", () => {
      const result = importHaystackAgent(agentYaml.yaml, { file: "agent.yaml" });

      expect(result.definition).toEqual(expected);
      expect(result.handWork.map((item) => item.kind)).toEqual(handWorkKinds);
      expect(result.handWork[0]!.message).toBe(
        "Chat generator recorder_tools.RecorderChatGenerator has no toolwright counterpart: register one as registry.chatGenerators.RecorderChatGenerator (a ChatGenerator, or a factory given the options), or use OpenAIChatGenerator.",
      );
    });

    it("converts the same Agent as the component of a pipeline, listing the pipeline's other component", () => {
      const pipeline = haystackFixture(version, "pipeline-yaml");
      const result = importHaystackAgent(pipeline.yaml, { file: "pipeline.yaml", component: pipeline.component });

      expect(result.definition).toEqual({ ...expected, version: 1, name: "assistant" });
      expect(result.handWork.map((item) => item.kind)).toEqual(["setting", ...handWorkKinds]);
      expect(result.handWork[0]!.message).toBe(
        "Only the Agent 'assistant' is converted; the pipeline's other components (prompt (ChatPromptBuilder)) and its connections stay in Haystack or become code around agent.run.",
      );
    });

    it("loads and runs once ported: the model sees Haystack's tool schemas, state is injected and merged, the exit tool ends the run", async () => {
      const stubs = importHaystackAgent(agentYaml.yaml).toolsModule;
      const { HaystackTools, handlers, confirmationStrategies, asked } = await convertAndPort(
        project,
        "agent.yaml",
        {
          [stubLine(stubs, "search_docs")]: "    return { documents: [{ content: `${query} for ${user_id}` }], summary: `1 document for ${query}` };",
          [stubLine(stubs, "add_note")]: "    return { note: [note] };",
          [stubLine(stubs, "finish")]: "    return answer;",
          '  throw new Error("Handler \'keepLast\' is not ported yet: port the Python function recorder_tools.keep_last.");': "  return incoming;",
          [`      throw new Error("Confirmation strategy 'confirmAskOnce' has no ask function yet: write one in place of the Haystack UI ${hooks ? "haystack.hooks.human_in_the_loop" : "haystack.human_in_the_loop"}.user_interfaces.SimpleConsoleUI.");`]:
            '      asked.push(_request.toolName);\n      return { action: "confirm" as const };',
          "/** The confirmation strategies": "export const asked: string[] = [];\n\n/** The confirmation strategies",
        },
        agentYaml.yaml,
      );
      const model = new ScriptedChatGenerator([call("c1", "search_docs", { query: "printers" }), call("c2", "add_note", { note: "first" }), call("c3", "add_note", { note: "first" }), call("c4", "finish", { answer: "done" })]);
      const agent = await loadAgent(project.path("src/agent.yaml"), {
        registry: { classes: { HaystackTools: () => new HaystackTools() }, chatGenerators: { RecorderChatGenerator: () => model }, handlers, confirmationStrategies },
      });
      const result = await agent.run({ user: "u-7", promptVariables: { user_name: "Ada", query: "Find printers" } });

      expect(result.exitReason).toBe("finish");
      expect(result.documents).toEqual([{ content: "printers for u-7" }]); // inputs_from_state user → user_id; outputs_to_state documents, merge_lists
      expect(result.notes).toEqual(["first"]); // keep_last, ported
      expect(asked).toEqual(["add_note"]); // AskOncePolicy: the same arguments are asked once
      const first = model.requests[0]!;
      expect(first.messages.map((m) => [m.role, m.text])).toEqual([["system", hooks ? "You help Ada." : "You help {{ user_name }}."], ["user", "Question: Find printers"]]);
      expect(result.messages[3]!.toolCallResult!.result).toBe("1 document for printers"); // outputs_to_string source summary
      // What the model is sent is the schema Haystack sends (create_tool_from_function's), with
      // additionalProperties: false added for strict mode (a default comes back from the parameter initializer).
      type ToolData = { name: string; parameters: unknown; tools?: Array<{ data: ToolData }> };
      const entries = (loadYaml(agentYaml.yaml) as { init_parameters: { tools: Array<{ data: ToolData }> } }).init_parameters.tools;
      const haystackTools = entries.flatMap((entry): ToolData[] => entry.data.tools?.map((inner) => inner.data) ?? [entry.data]);
      expect(first.tools!.map((t) => t.name)).toEqual(haystackTools.map((t) => t.name));
      for (const spec of first.tools!) {
        expect(spec.parameters).toEqual(strictForm(haystackTools.find((t) => t.name === spec.name)!.parameters));
      }
    });
  });
});

// Haystack's schema as toolwright sends it: objects closed (additionalProperties: false).
function strictForm(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictForm);
  if (typeof schema !== "object" || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([name, inner]) => [name, strictForm(inner)])) : strictForm(value);
  if (out.type === "object") out.additionalProperties = false;
  return out;
}

