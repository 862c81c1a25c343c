import { DefinitionError } from "../../src/errors";
import { readYamlDefinition } from "../../src/yaml/yamlDocument";
import { readError } from "./readError";

const agentYaml = `# The support agent
version: 1
name: support
chatGenerator: { type: openai, options: { model: gpt-4o-mini, apiKey: { env: OPENAI_API_KEY } } }
systemPrompt: |
  You help customers.
  Be brief.
tools:
  - class: SupportTools
    inputsFromState:
      customer: customerId
exitConditions: [text, escalate]
maxAgentSteps: 8
`;

describe("readYamlDefinition", () => {
  it("reads a definition into plain data, keys in the file's order", () => {
    const { data } = readYamlDefinition(agentYaml, "agent.yaml");

    expect(data).toEqual({
      version: 1,
      name: "support",
      chatGenerator: { type: "openai", options: { model: "gpt-4o-mini", apiKey: { env: "OPENAI_API_KEY" } } },
      systemPrompt: "You help customers.\nBe brief.\n",
      tools: [{ class: "SupportTools", inputsFromState: { customer: "customerId" } }],
      exitConditions: ["text", "escalate"],
      maxAgentSteps: 8,
    });
    expect(Object.keys(data as object)).toEqual(["version", "name", "chatGenerator", "systemPrompt", "tools", "exitConditions", "maxAgentSteps"]);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });

  it("reads YAML 1.2 core scalars: yes, no, on and off stay strings", () => {
    const { data } = readYamlDefinition("a: yes\nb: no\nc: on\nd: off\ne: true\nf: ~\ng: 0x1F\nh: 0o17\ni: 1e3\nj: -0.5\nk: '1'\nl: 2001-12-14\n", "agent.yaml");

    expect(data).toEqual({ a: "yes", b: "no", c: "on", d: "off", e: true, f: null, g: 31, h: 15, i: 1000, j: -0.5, k: "1", l: "2001-12-14" });
  });

  it("reads JSON text, tab-indented too, which is YAML 1.2", () => {
    const data = { version: 1, chatGenerator: { type: "openai" }, tools: [{ tool: "a" }], text: "é\u2028\"\\\t🎉", n: -1.5e-7, flags: [true, false, null] };
    const definition = readYamlDefinition(JSON.stringify(data, null, "\t"), "agent.json");

    expect(definition.data).toEqual(data);
    expect(definition.locate(["tools", 0, "tool"])).toEqual({ line: 8, column: 12 });
  });

  it("ignores a leading byte-order mark, for the data and for positions", () => {
    const definition = readYamlDefinition("\uFEFFversion: 1\nname: x\n", "agent.yaml");

    expect(definition.data).toEqual({ version: 1, name: "x" });
    expect(definition.locate(["version"], { key: true })).toEqual({ line: 1, column: 1 });
  });

  it("accepts a file of exactly 1 MiB", () => {
    const text = `a: ${"x".repeat(1_048_576 - 4)}\n`;

    expect(Buffer.byteLength(text)).toBe(1_048_576);
    expect((readYamlDefinition(text, "agent.yaml").data as { a: string }).a).toHaveLength(1_048_572);
  });

  it("refuses a file over 1 MiB, naming the limit", () => {
    expect(readError(`a: ${"x".repeat(1_048_576)}\n`).message).toBe(
      "agent.yaml:1:1: (definition): is 1,048,580 bytes, more than 1,048,576 bytes (1 MiB), the limit for a definition file; make the file smaller.",
    );
  });

  it("counts the size in UTF-8 bytes, not characters", () => {
    expect(readError(`a: ${"é".repeat(600_000)}\n`).message).toBe(
      "agent.yaml:1:1: (definition): is 1,200,004 bytes, more than 1,048,576 bytes (1 MiB), the limit for a definition file; make the file smaller.",
    );
  });

  it.each([
    ["an unclosed flow sequence", "name: x\ntools: [a, b\n", "agent.yaml:3:1: (definition): is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]; fix the YAML at this line and column."],
    ["an unclosed quote", "name: 'x\n", "agent.yaml:2:1: (definition): is not valid YAML: Missing closing 'quote; fix the YAML at this line and column."],
    ["a mapping inside a one-line mapping", "name: a: b\n", "agent.yaml:1:7: (definition): is not valid YAML: Nested mappings are not allowed in compact mappings; fix the YAML at this line and column."],
    ["a reserved character", "name: @x\n", "agent.yaml:1:7: (definition): is not valid YAML: Plain value cannot start with reserved character @; fix the YAML at this line and column."],
    ["a tab as indentation", "tools:\n\t- a\n", "agent.yaml:2:1: (definition): is not valid YAML: Tabs are not allowed as indentation; indent with spaces."],
    ["an ambiguous anchor (a warning)", "name: &x: 1\n", "agent.yaml:1:9: (definition): is not valid YAML: Anchor ending in : is ambiguous; fix the YAML at this line and column."],
  ])("refuses %s at its line and column, with the parser's message", (_what, text, message) => {
    const error = readError(text);

    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.message).toBe(message);
    expect(error.path).toEqual([]);
  });

  it.each([
    ["after ---", "version: 1\nname: a\n---\nversion: 1\n", 3],
    ["after an empty ---", "version: 1\n--- \n", 2],
    ["after the end marker ...", "version: 1\n...\nname: b\n", 3],
  ])("refuses a second document %s, pointing at it", (_what, text, line) => {
    expect(readError(text).message).toBe(
      `agent.yaml:${line}:1: (definition): holds a second YAML document here; a definition file holds one document, so remove this one (from this line on) or move it to a file of its own.`,
    );
  });

  it("reads one document that starts with --- or ends with ...", () => {
    expect(readYamlDefinition("---\nversion: 1\n...\n", "agent.yaml").data).toEqual({ version: 1 });
  });

  it.each([
    ["an empty file", "", "is empty"],
    ["a file of comments", "# nothing yet\n\n", "is empty"],
    ["a sequence", "# tools\n- a\n- b\n", "is a sequence, not a mapping"],
    ["a string", "support\n", "is a string, not a mapping"],
    ["a number", "1\n", "is a number, not a mapping"],
    ["null", "~\n", "is null, not a mapping"],
    ["a flow sequence", "[a]\n", "is a sequence, not a mapping"],
  ])("refuses %s at the top, at 1:1", (_what, text, problem) => {
    expect(readError(text).message).toBe(`agent.yaml:1:1: (definition): ${problem}; a definition file holds one mapping of keys and values, such as 'version: 1'.`);
  });

  it("refuses a %YAML 1.1 directive, which would change what yes, no and << mean", () => {
    expect(readError("# v1.1\n%YAML 1.1\n---\nname: yes\n").message).toBe(
      "agent.yaml:2:1: (definition): declares YAML 1.1 (%YAML 1.1); a definition is read as YAML 1.2, where 'yes' and 'no' are strings and '<<' is no merge key, so remove the %YAML line.",
    );
  });

  it("accepts a %YAML 1.2 directive", () => {
    expect(readYamlDefinition("%YAML 1.2\n---\nname: yes\n", "agent.yaml").data).toEqual({ name: "yes" });
  });

  it.each([
    ["an unknown directive", "%FOO bar\n---\nname: x\n", "agent.yaml:1:1: (definition): has a directive the YAML parser does not read: Unknown directive %FOO; remove the directive line."],
    ["an unsupported YAML version", "%YAML 1.3\n---\nname: x\n", "agent.yaml:1:7: (definition): has a directive the YAML parser does not read: Unsupported YAML version 1.3; remove the directive line."],
  ])("refuses %s", (_what, text, message) => {
    expect(readError(text).message).toBe(message);
  });

  it("names the file it was given in every message", () => {
    expect(readError("- a\n", "agents/support.agent.yaml").message).toBe(
      "agents/support.agent.yaml:1:1: (definition): is a sequence, not a mapping; a definition file holds one mapping of keys and values, such as 'version: 1'.",
    );
  });
});

describe("YamlDefinition.locateError", () => {
  const definition = readYamlDefinition(agentYaml, "agent.yaml");

  it("points at the value of an existing path", () => {
    const error = definition.locateError(new DefinitionError(["tools", 0, "inputsFromState", "customer"], "is not a state key; declare it in stateSchema."));

    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.message).toBe("agent.yaml:11:17: tools[0].inputsFromState.customer: is not a state key; declare it in stateSchema.");
    expect(error.location).toEqual({ file: "agent.yaml", line: 11, column: 17 });
    expect(error.path).toEqual(["tools", 0, "inputsFromState", "customer"]);
    expect(error.reason).toBe("is not a state key; declare it in stateSchema.");
  });

  it("points at the key with { key: true }, for a key that should not be there", () => {
    const error = definition.locateError(new DefinitionError(["maxAgentSteps"], "is not a key of an agent definition."), { key: true });

    expect(error.message).toBe("agent.yaml:13:1: maxAgentSteps: is not a key of an agent definition.");
  });

  it("points at the mapping that lacks a missing key", () => {
    const error = definition.locateError(new DefinitionError(["tools", 0, "settings", "description"], "is missing."));

    expect(error.message).toBe("agent.yaml:9:5: tools[0].settings.description: is missing.");
  });

  it("points at the top-level mapping for the whole definition", () => {
    expect(definition.locateError(new DefinitionError([], "needs a chatGenerator.")).message).toBe("agent.yaml:2:1: (definition): needs a chatGenerator.");
  });

  it("keeps the cause", () => {
    const cause = new Error("registry lookup");

    expect(definition.locateError(new DefinitionError(["name"], "is taken.", { cause })).cause).toBe(cause);
  });

  it("returns an error that already has a location unchanged", () => {
    const located = new DefinitionError(["name"], "is taken.").at({ file: "other.yaml", line: 4, column: 2 });

    expect(definition.locateError(located)).toBe(located);
  });
});
