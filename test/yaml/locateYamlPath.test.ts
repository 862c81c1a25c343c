import { readYamlDefinition } from "../../src/yaml/yamlDocument";

const agentYaml = `# The support agent
version: 1
chatGenerator: { type: openai, options: { model: gpt-4o-mini } }
systemPrompt: |
  You help customers.
  Be brief.
tools:
  - class: SupportTools
    inputsFromState:
      customer: customerId
  - tool: search
    settings: &shared
      description: Finds things.
  - toolset: admin
    settings: *shared
exitConditions: [text, "done"]
empty:
stateSchema:
  notes:
    type: { type: array, items: { type: string } }
  "1": { type: number }
`;

type Path = (string | number)[];

describe("YamlDefinition.locate", () => {
  const definition = readYamlDefinition(agentYaml, "agent.yaml");
  const at = (line: number, column: number) => ({ line, column });

  it.each<[string, Path, ReturnType<typeof at>, ReturnType<typeof at>]>([
    ["the top-level mapping", [], at(2, 1), at(2, 1)],
    ["a top-level scalar", ["version"], at(2, 10), at(2, 1)],
    ["a flow mapping", ["chatGenerator"], at(3, 16), at(3, 1)],
    ["a flow mapping in a flow mapping", ["chatGenerator", "options"], at(3, 41), at(3, 32)],
    ["a scalar in nested flow mappings", ["chatGenerator", "options", "model"], at(3, 50), at(3, 43)],
    ["a block scalar, at its indicator", ["systemPrompt"], at(4, 15), at(4, 1)],
    ["a block sequence, at its first item", ["tools"], at(8, 3), at(7, 1)],
    ["a mapping in a sequence, at its first key", ["tools", 0], at(8, 5), at(8, 5)],
    ["a scalar in a mapping in a sequence", ["tools", 0, "inputsFromState", "customer"], at(10, 17), at(10, 7)],
    ["an anchored mapping", ["tools", 1, "settings"], at(13, 7), at(12, 5)],
    ["an alias, at the alias", ["tools", 2, "settings"], at(15, 15), at(15, 5)],
    ["a path through an alias, inside the anchored value", ["tools", 2, "settings", "description"], at(13, 20), at(13, 7)],
    ["a flow sequence item", ["exitConditions", 1], at(16, 24), at(16, 24)],
    ["a flow sequence item by a numeric string", ["exitConditions", "1"], at(16, 24), at(16, 24)],
    ["an empty value, at its key", ["empty"], at(17, 1), at(17, 1)],
    ["deep in flow mappings in block mappings", ["stateSchema", "notes", "type", "items", "type"], at(20, 41), at(20, 35)],
    ["a quoted key by a number", ["stateSchema", 1], at(21, 8), at(21, 3)],
  ])("finds %s", (_what, path, value, key) => {
    expect(definition.locate(path)).toEqual(value);
    expect(definition.locate(path, { key: true })).toEqual(key);
  });

  it.each<[string, Path, ReturnType<typeof at>]>([
    ["a missing key, at the mapping that lacks it", ["tools", 0, "name"], at(8, 5)],
    ["a missing top-level key, at the top-level mapping", ["name"], at(2, 1)],
    ["an index past the end, at the sequence", ["tools", 7], at(8, 3)],
    ["a negative index, at the sequence", ["tools", -1], at(8, 3)],
    ["a key on a sequence, at the sequence", ["tools", "class"], at(8, 3)],
    ["a path below a scalar, at the scalar", ["version", "major"], at(2, 10)],
    ["a path below an empty value, at its key", ["empty", "x"], at(17, 1)],
    ["a missing key below an alias, at the alias", ["tools", 2, "settings", "name"], at(15, 15)],
  ])("falls back for %s", (_what, path, position) => {
    expect(definition.locate(path)).toEqual(position);
    expect(definition.locate(path, { key: true })).toEqual(position);
  });

  it("finds a key written as an alias", () => {
    const definition = readYamlDefinition("names:\n  - &n name\nsettings:\n  *n : x\n", "agent.yaml");

    expect(definition.data).toEqual({ names: ["name"], settings: { name: "x" } });
    expect(definition.locate(["settings", "name"])).toEqual({ line: 4, column: 8 });
    expect(definition.locate(["settings", "name"], { key: true })).toEqual({ line: 4, column: 3 });
  });

  it("finds an entry whose key is explicit (?) and whose value is missing", () => {
    const definition = readYamlDefinition("a: 1\n? b\n", "agent.yaml");

    expect(definition.data).toEqual({ a: 1, b: null });
    expect(definition.locate(["b"])).toEqual({ line: 2, column: 3 });
  });

  it("counts lines the same in a file with CRLF line ends", () => {
    const definition = readYamlDefinition(agentYaml.replace(/\n/g, "\r\n"), "agent.yaml");

    expect(definition.locate(["tools", 0, "inputsFromState", "customer"])).toEqual({ line: 10, column: 17 });
    expect(definition.locate(["exitConditions", 1])).toEqual({ line: 16, column: 24 });
  });

  it("counts columns in UTF-16 code units after non-ASCII text", () => {
    const definition = readYamlDefinition("names: { ü: 1, 🎉: 2, x: 3 }\n", "agent.yaml");

    expect(definition.locate(["names", "x"], { key: true })).toEqual({ line: 1, column: 23 });
  });
});
