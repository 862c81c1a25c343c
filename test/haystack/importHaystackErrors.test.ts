import { DefinitionError } from "toolwright";
import { HaystackImportError, importHaystackAgent } from "toolwright/yaml";

function thrown(text: string, options?: { component?: string }): Error {
  try {
    importHaystackAgent(text, options);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected importHaystackAgent to throw");
}

const agentHead = "type: haystack.components.agents.agent.Agent\n";

describe("importHaystackAgent", () => {
  it("lists every problem of a broken Agent at once, in file order", () => {
    const error = thrown(
      `${agentHead}init_parameters:\n  chat_generator: gpt-4o\n  tools: 3\n  state_schema:\n    docs: { type: 5 }\n  exit_conditions: text\n  max_agent_steps: 0\n  system_prompt: [a]\n  raise_on_tool_invocation_failure: "yes"\n`,
    );
    expect(error).toBeInstanceOf(HaystackImportError);
    expect((error as HaystackImportError).problems.every((problem) => problem instanceof DefinitionError)).toBe(true);
    expect(error.message).toBe(
      [
        "agent.yaml is not a Haystack Agent YAML that can be converted (7 problems):",
        "  agent.yaml:3:19: init_parameters.chat_generator: is not a mapping: a Haystack Agent's chat_generator is { type, init_parameters }, as component_to_dict writes it.",
        "  agent.yaml:4:10: init_parameters.tools: is not a list of tools or a Toolset: a Haystack Agent's tools are serialized as [{ type, data }] or one { type, data }.",
        "  agent.yaml:6:19: init_parameters.state_schema.docs.type: is not a type string: each state_schema key is { type: \"str\" | \"list[str]\" | …, handler? }, as Haystack's _schema_to_dict writes it.",
        '  agent.yaml:7:20: init_parameters.exit_conditions: is not a list of strings: exit_conditions holds "text" and tool names.',
        "  agent.yaml:8:20: init_parameters.max_agent_steps: is not a whole number of at least 1.",
        "  agent.yaml:9:18: init_parameters.system_prompt: is not a string: system_prompt is a Jinja template (or null).",
        "  agent.yaml:10:37: init_parameters.raise_on_tool_invocation_failure: is not a boolean.",
      ].join("\n"),
    );
  });

  it("refuses a YAML that is no Agent with every reason", () => {
    expect(thrown("foo: 1\n").message).toBe(
      [
        "agent.yaml is not a Haystack Agent YAML that can be converted (2 problems):",
        "  agent.yaml:1:1: type: is missing: a Haystack Agent YAML starts with type: haystack.components.agents.agent.Agent and init_parameters (what Agent.to_dict() writes), or is a pipeline with components.",
        "  agent.yaml:1:1: init_parameters: is missing: Agent.to_dict() writes the Agent's settings under init_parameters.",
      ].join("\n"),
    );
    expect(thrown("type: haystack.components.builders.prompt_builder.PromptBuilder\ninit_parameters:\n  template: hi\n").message).toBe(
      "agent.yaml is not a Haystack Agent YAML that can be converted (1 problem):\n  agent.yaml:1:7: type: is haystack.components.builders.prompt_builder.PromptBuilder, not haystack.components.agents.agent.Agent; convert an Agent, or a pipeline that has one among its components.",
    );
    expect(thrown("version: 1\nchatGenerator: { type: OpenAIChatGenerator }\n").message).toBe(
      "agent.yaml is not a Haystack Agent YAML that can be converted (1 problem):\n  agent.yaml:1:1: (definition): is a toolwright definition already (version: 1, chatGenerator), not a Haystack Agent; load it with loadAgent.",
    );
  });

  it("finds the Agent among a pipeline's components, or says which to choose", () => {
    expect(thrown("components:\n  p:\n    type: haystack.components.builders.prompt_builder.PromptBuilder\n    init_parameters: {}\nconnections: []\n").message).toBe(
      "agent.yaml is not a Haystack Agent YAML that can be converted (1 problem):\n  agent.yaml:2:3: components: has no Agent component (type haystack.components.agents.agent.Agent); its components: p (PromptBuilder).",
    );
    const two = `components:\n  a:\n    ${agentHead}    init_parameters: { chat_generator: { type: haystack.components.generators.chat.openai.OpenAIChatGenerator, init_parameters: { model: gpt-4o } } }\n  b:\n    ${agentHead}    init_parameters: {}\n`;
    expect(thrown(two).message).toBe("agent.yaml is not a Haystack Agent YAML that can be converted (1 problem):\n  agent.yaml:2:3: components: has 2 Agent components (a, b); choose one with --component <name>.");
    expect(thrown(two, { component: "c" }).message).toBe("agent.yaml is not a Haystack Agent YAML that can be converted (1 problem):\n  agent.yaml:2:3: components: has no Agent component 'c'; Agent components: a, b.");
    expect(importHaystackAgent(two, { component: "a" }).definition).toEqual({ version: 1, name: "a", chatGenerator: { type: "OpenAIChatGenerator", options: { model: "gpt-4o" } } });
  });

  it("keeps another generator's type as a registry name and lists it, with a multi-output outputs_to_string, as hand work", () => {
    const result = importHaystackAgent(
      `${agentHead}init_parameters:\n  chat_generator:\n    type: haystack_integrations.components.generators.anthropic.chat.chat_generator.AnthropicChatGenerator\n    init_parameters: { model: claude-sonnet-4-5 }\n  tools:\n    type: haystack.tools.toolset.Toolset\n    data:\n      tools:\n      - type: haystack.tools.tool.Tool\n        data: { name: ping, description: Ping., parameters: { type: object, properties: {} }, function: t.ping, outputs_to_string: { docs: { source: documents }, total: { source: count } } }\n`,
    );
    expect(result.definition).toEqual({ version: 1, chatGenerator: { type: "AnthropicChatGenerator" }, tools: [{ class: "HaystackTools" }] });
    expect(result.handWork.map((item) => `${item.line}:${item.column} ${item.path} [${item.kind}] ${item.message}`)).toEqual([
      "4:11 init_parameters.chat_generator.type [generator] Chat generator haystack_integrations.components.generators.anthropic.chat.chat_generator.AnthropicChatGenerator has no toolwright counterpart: register one as registry.chatGenerators.AnthropicChatGenerator (a ChatGenerator, or a factory given the options), or use OpenAIChatGenerator.",
      "11:105 init_parameters.tools.data.tools[0].data.function [function] Port the Python function t.ping of tool 'ping' to the body of its @tool method.",
      // Haystack main's multi-output form (tool.py _serialize_outputs_to_string); toolwright's outputsToString has one source.
      "11:132 init_parameters.tools.data.tools[0].data.outputs_to_string [setting] outputs_to_string with several outputs (docs, total) has no toolwright form: write one outputsToString handler that formats them together.",
    ]);
  });

  it("refuses hostile YAML with the limits of toolwright/yaml: size, nesting, alias expansion and tags", () => {
    expect(thrown(`${agentHead}init_parameters:\n  system_prompt: "${"x".repeat(1_048_576)}"\n`).message).toBe(
      "agent.yaml:1:1: (definition): is 1,048,658 bytes, more than 1,048,576 bytes (1 MiB), the limit for a definition file; make the file smaller.",
    );
    expect(thrown(`${agentHead}init_parameters: ${"[".repeat(101)}`).message).toBe("agent.yaml:2:117: (definition): nests mappings and sequences more than 100 levels deep, the limit for a definition file; flatten it.");
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]", "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]", "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]", agentHead, "init_parameters: { tools: *d }"].join("\n");
    expect(thrown(bomb).message).toBe(
      "agent.yaml:4:36: d[7]: expands aliases to more than 10,000 values, the limit for a definition file (it guards against files that expand into huge data); repeat fewer or smaller values with aliases.",
    );
    expect(thrown("type: !!python/name:os.system\ninit_parameters: {}\n").message).toBe(
      "agent.yaml:1:30: type: has the tag !!python/name:os.system; a definition is plain data, so only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are read: remove the tag.",
    );
  });
});

describe("importHaystackAgent's stubs on a parameter's default", () => {
  const withDefaults = (defaults: string) => `${agentHead}init_parameters:
  chat_generator: { type: x.Gen, init_parameters: {} }
  tools:
  - type: haystack.tools.tool.Tool
    data:
      name: pick
      description: Pick.
      function: m.pick
      parameters:
        type: object
        properties:
${defaults}
`;

  it("writes a string, number, boolean, null or array default as the parameter's initializer, which codegen turns back into the schema's default", () => {
    const { toolsModule } = importHaystackAgent(
      withDefaults(`          unit: { type: string, enum: [c, f], default: c }
          limit: { type: integer, default: 3 }
          exact: { type: boolean, default: false }
          tags: { type: array, items: { type: string }, default: ["a", "b\\"c"] }`),
    );
    expect(toolsModule).toContain('async pick(unit: "c" | "f" = "c", limit: Integer = 3, exact: boolean = false, tags: string[] = ["a","b\\"c"]): Promise<unknown> {');
  });

  it("leaves an object default to the body (an object literal could set __proto__): the parameter is optional", () => {
    const { toolsModule } = importHaystackAgent(
      withDefaults(`          filters: { type: object, properties: { year: { type: integer } }, default: { __proto__: { polluted: true } } }`),
    );
    expect(toolsModule).toContain("async pick(filters?: { year?: Integer }): Promise<unknown> {");
  });
});
