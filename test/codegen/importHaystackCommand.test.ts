import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { main } from "../../codegen/cli";
import { captured, TempProject, tempTsconfig } from "./helpers/tempProject";

const fixtures = path.join(__dirname, "..", "haystack", "importFixtures");
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), "utf8");

async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const out = captured();
  const err = captured();
  const code = await main(argv, out, err, cwd);
  return { code, out: out.text, err: err.text };
}

describe("runImportHaystack", () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject({ "agent.yaml": fixture("agent-2.31.yaml"), "pipeline-main.yaml": fixture("pipeline-main.yaml") });
  });
  afterEach(() => project.dispose());

  it("writes the definition and the stubs, and prints the hand work with the YAML path of each item", async () => {
    const { code, out, err } = await run(["import-haystack", "pipeline-main.yaml", "--out", "converted"], project.dir);
    expect({ code, err }).toEqual({ code: 0, err: "" });
    expect(out).toBe(
      [
        "wrote converted/agent.yaml and converted/tools.ts.",
        "Hand work (9 items):",
        "  pipeline-main.yaml:8:3 components: Only the Agent 'assistant' is converted; the pipeline's other components (router (ConditionalRouter)) and its connections stay in Haystack or become code around agent.run.",
        '  pipeline-main.yaml:12:25 components.assistant.init_parameters.chat_generator.init_parameters.api_base_url: The generator\'s base URL http://127.0.0.1:9/v1 is kept as baseURL; allow it when loading: loadAgent(file, { allowedBaseURLs: ["http://127.0.0.1:9/v1"] }).',
        '  pipeline-main.yaml:15:15 components.assistant.init_parameters.chat_generator.init_parameters.api_key.env_vars[0]: The API key is read from DESK_OPENAI_KEY; allow it when loading: loadAgent(file, { allowedEnv: ["DESK_OPENAI_KEY"] }).',
        "  pipeline-main.yaml:34:17 components.assistant.init_parameters.hooks.after_tool[0].type: Hook my_hooks.TrimResults at after_tool has no data form in toolwright: write it as middleware (its afterTool hook) and pass it to loadAgent(file, { middleware }).",
        '  pipeline-main.yaml:49:21 components.assistant.init_parameters.hooks.before_tool[0].init_parameters.confirmation_strategies["[\\"close_ticket\\", \\"refund\\"]"].init_parameters.confirmation_ui: Confirmation UI haystack.hooks.human_in_the_loop.user_interfaces.RichConsoleUI asks through Python: write the ask function of confirmationStrategies.confirmAskOnce in the tools module (or use strategy: deferred to pause the run and ask later).',
        "  pipeline-main.yaml:75:21 components.assistant.init_parameters.tools[0].data.function: Port the Python function desk.tools.close_ticket of tool 'close_ticket' to the body of its @tool method.",
        "  pipeline-main.yaml:83:22 components.assistant.init_parameters.tools[0].data.outputs_to_string.handler: Port the Python handler desk.format.ticket_text to ticketText (result) => string in the tools module.",
        "  pipeline-main.yaml:98:27 components.assistant.init_parameters.tools[1].data.async_function: Port the Python function desk.tools.refund of tool 'refund' to the body of its @tool method.",
        "  pipeline-main.yaml:128:15 components.assistant.init_parameters.tools[2].type: Tool 'read_file' is an MCPTool (a tool of an MCP server; connect it with toolwright/mcp): build it in TypeScript and register it as registry.tools.read_file.",
        "",
      ].join("\n"),
    );
    expect(project.read("converted/tools.ts")).toBe(fixture("pipeline-main.tools.ts.txt"));
    expect(project.read("converted/agent.yaml").split("\n").slice(0, 6)).toEqual([
      "# Converted by toolwright import-haystack from pipeline-main.yaml.",
      "# yaml-language-server: $schema=./node_modules/toolwright/agent-definition.schema.json",
      "version: 1",
      "name: assistant",
      "chatGenerator:",
      "  type: OpenAIChatGenerator",
    ]);
  });

  it("writes stubs that type-check as they are, before any body is ported", async () => {
    expect((await run(["import-haystack", "agent.yaml", "--out", "src/a"], project.dir)).code).toBe(0);
    expect((await run(["import-haystack", "pipeline-main.yaml", "--out", "src/b"], project.dir)).code).toBe(0);
    const { options } = ts.convertCompilerOptionsFromJson(tempTsconfig.compilerOptions, project.dir);
    const program = ts.createProgram([project.path("src/a/tools.ts"), project.path("src/b/tools.ts")], { ...options, noUnusedLocals: true, noUnusedParameters: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });

  it("exits 1 with every problem of a YAML that is no Haystack Agent, and writes nothing", async () => {
    project.write("bad.yaml", "type: haystack.components.agents.agent.Agent\ninit_parameters:\n  chat_generator: gpt-4o\n  max_agent_steps: 0\n");
    expect(await run(["import-haystack", "bad.yaml", "--out", "converted"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: [
        "bad.yaml:3:19: init_parameters.chat_generator: is not a mapping: a Haystack Agent's chat_generator is { type, init_parameters }, as component_to_dict writes it.",
        "bad.yaml:4:20: init_parameters.max_agent_steps: is not a whole number of at least 1.",
        "",
        "Found 2 problems; nothing was written.",
        "",
      ].join("\n"),
    });
    expect(project.exists("converted")).toBe(false);
  });

  it("exits 1 for YAML the reader refuses, and 2 for files it would overwrite or arguments it cannot use", async () => {
    project.write("deep.yaml", `a: ${"[".repeat(101)}`);
    expect(await run(["import-haystack", "deep.yaml", "--out", "deep"], project.dir)).toEqual({ code: 1, out: "", err: "deep.yaml:1:103: (definition): nests mappings and sequences more than 100 levels deep, the limit for a definition file; flatten it.\nNothing was written.\n" });
    expect((await run(["import-haystack", "agent.yaml", "--out", "x"], project.dir)).code).toBe(0);
    expect(await run(["import-haystack", "agent.yaml", "--out", "x"], project.dir)).toEqual({
      code: 2,
      out: "",
      err: "toolwright: x/agent.yaml and x/tools.ts already exist; pass --force to overwrite, or choose another --out directory (tools.ts may hold ported code).\n",
    });
    expect((await run(["import-haystack", "agent.yaml", "--out", "x", "--force"], project.dir)).code).toBe(0);
    const noFile = await run(["import-haystack"], project.dir);
    expect(noFile.code).toBe(2);
    expect(noFile.err.split("\n")[0]).toBe("toolwright: import-haystack needs the Haystack YAML file: toolwright import-haystack agent.yaml.");
    expect((await run(["import-haystack", "missing.yaml"], project.dir)).err.split(": ").slice(0, 2)).toEqual(["toolwright", "missing.yaml could not be read"]);
  });

  it("writes into toolwright-agent/ by default, and never over its input", async () => {
    expect((await run(["import-haystack", "agent.yaml"], project.dir)).out.split("\n")[0]).toBe("wrote toolwright-agent/agent.yaml and toolwright-agent/tools.ts.");
    expect(await run(["import-haystack", "agent.yaml", "--out", ".", "--force"], project.dir)).toEqual({
      code: 2,
      out: "",
      err: "toolwright: agent.yaml is the YAML being converted; choose another --out directory.\n",
    });
  });

  it("converts the component a pipeline names with --component", async () => {
    expect((await run(["import-haystack", "pipeline-main.yaml", "--component", "router"], project.dir)).err).toBe(
      "pipeline-main.yaml:8:3: components: has no Agent component 'router'; Agent components: assistant.\n\nFound 1 problem; nothing was written.\n",
    );
    expect((await run(["import-haystack", "pipeline-main.yaml", "--component=assistant"], project.dir)).code).toBe(0);
  });
});
