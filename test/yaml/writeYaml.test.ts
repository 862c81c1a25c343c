import fc from "fast-check";
import { DefinitionError } from "../../src/errors";
import { definitionToYaml } from "../../src/yaml/writeYaml";
import { readYamlDefinition } from "../../src/yaml/yamlDocument";
import { fuzzParameters, fuzzRuns } from "../security/fuzzSettings";

const tricky = ["yes", "no", "on", "off", "y", "n", "true", "False", "null", "~", "", " ", "1e3", "0x1F", "0o17", "012", ".inf", "-.NaN", "1_000", "2001-12-14", "12:30:45", "  lead", "trail ", "a: b", "a:b", "#x", "a #b", "- x", "? x", "[x]", "{x}", "*x", "&x", "!x", "|x", ">x", "'x", '"x', "%x", "@x", "`x", "---", "...", "<<", "__proto__", "line1  \nline2 \n", "  lead\nsecond", "a\n\n\nb\n\n", "\n", "tab\there", "\ttab first\nx", "a\r\nb", "x\u0085y\u2028z", "ünïcödé ✓ 🎉", "\u0000\u0007\u001b\u007f", "\uFEFFbom", "lone \uD800 surrogate"];

function thrownBy(write: () => unknown): Error {
  try {
    write();
  } catch (error) {
    return error as Error;
  }
  throw new Error("definitionToYaml did not throw");
}

describe("definitionToYaml", () => {
  it("writes block style, keys in the data's order", () => {
    const yaml = definitionToYaml({
      version: 1,
      name: "support",
      chatGenerator: { type: "openai", options: { model: "gpt-4o-mini", apiKey: { env: "OPENAI_API_KEY" } } },
      tools: [{ class: "SupportTools", inputsFromState: { customer: "customerId" } }, { tool: "search" }],
      exitConditions: ["text"],
      stateSchema: {},
      maxAgentSteps: 8,
    });

    expect(yaml).toBe(`version: 1
name: support
chatGenerator:
  type: openai
  options:
    model: gpt-4o-mini
    apiKey:
      env: OPENAI_API_KEY
tools:
  - class: SupportTools
    inputsFromState:
      customer: customerId
  - tool: search
exitConditions:
  - text
stateSchema: {}
maxAgentSteps: 8
`);
  });

  it("writes multi-line strings as literal block scalars", () => {
    expect(definitionToYaml({ systemPrompt: "You help customers.\nBe brief.", userPrompt: "Ticket:\n{{ ticket }}\n", indented: "  code\nmore" })).toBe(`systemPrompt: |-
  You help customers.
  Be brief.
userPrompt: |
  Ticket:
  {{ ticket }}
indented: |2-
    code
  more
`);
  });

  it("quotes strings that YAML 1.2 or 1.1 would read as another type or as syntax", () => {
    expect(definitionToYaml({ a: "yes", b: "null", c: "1e3", d: "  lead", e: "a: b", f: "#x", g: "on", h: "~", i: "", j: "0o17", k: "- x", l: "plain text", "1": "numeric key", n: "n" })).toBe(`"1": numeric key
a: "yes"
b: "null"
c: "1e3"
d: "  lead"
e: "a: b"
f: "#x"
g: "on"
h: "~"
i: ""
j: "0o17"
k: "- x"
l: plain text
"n": "n"
`);
  });

  it("writes a comment above the data, one # line per line", () => {
    expect(definitionToYaml({ version: 1 }, { comment: "Written by toolwright.\n\nEdit freely." })).toBe("# Written by toolwright.\n#\n# Edit freely.\nversion: 1\n");
  });

  it("writes a __proto__ key as a key", () => {
    const data = JSON.parse('{"__proto__": {"x": 1}, "a": 1}');

    expect(definitionToYaml(data)).toBe("__proto__:\n  x: 1\na: 1\n");
  });

  it("leaves out undefined properties, as JSON.stringify does", () => {
    expect(definitionToYaml({ name: "x", description: undefined })).toBe("name: x\n");
  });

  it("writes a value used twice in full both times, without anchors", () => {
    const shared = { description: "Finds things." };

    expect(definitionToYaml({ a: shared, b: shared })).toBe("a:\n  description: Finds things.\nb:\n  description: Finds things.\n");
  });

  it.each([
    ["a function", { tools: [{ run: () => 1 }] }, "tools[0].run: is a function, which is not JSON data; give only strings, finite numbers, booleans, null, arrays and plain objects."],
    ["a Date", { when: new Date(0) }, "when: is a Date, which is not JSON data; give only strings, finite numbers, booleans, null, arrays and plain objects."],
    ["NaN", { maxAgentSteps: NaN }, "maxAgentSteps: is number NaN, which is not JSON data; give only strings, finite numbers, booleans, null, arrays and plain objects."],
    ["undefined in an array", { exitConditions: ["text", undefined] }, "exitConditions[1]: is undefined, which is not JSON data; give only strings, finite numbers, booleans, null, arrays and plain objects."],
    ["a bigint", { n: 1n }, "n: is bigint 1n, which is not JSON data; give only strings, finite numbers, booleans, null, arrays and plain objects."],
  ])("refuses %s, at its path", (_what, data, message) => {
    const error = thrownBy(() => definitionToYaml(data));

    expect(error).toBeInstanceOf(DefinitionError);
    expect(error.message).toBe(message);
  });

  it.each([
    ["an array", ["version"], "(definition): is an array, not an object; a definition is an object of keys and values, such as { version: 1 }."],
    ["a string", "version: 1", '(definition): is string "version: 1", not an object; a definition is an object of keys and values, such as { version: 1 }.'],
    ["null", null, "(definition): is null, not an object; a definition is an object of keys and values, such as { version: 1 }."],
  ])("refuses %s at the top", (_what, data, message) => {
    expect(thrownBy(() => definitionToYaml(data)).message).toBe(message);
  });

  it("refuses nesting that readYamlDefinition would refuse", () => {
    let deep: unknown = "x";
    for (let level = 0; level < 100; level += 1) deep = [deep];

    expect(definitionToYaml({ a: (deep as unknown[])[0] })).toContain("a:");
    expect(thrownBy(() => definitionToYaml({ a: deep })).message).toBe(`a${"[0]".repeat(99)}: nests mappings and sequences more than 100 levels deep, the limit for a definition file; flatten it.`);
  });

  it("keeps long keys and long lines whole", () => {
    const data = { ["k".repeat(2000)]: "v ".repeat(1000), prompt: `${"word ".repeat(400)}
${"x".repeat(3000)}` };
    const yaml = definitionToYaml(data);

    expect(yaml.split("\n").length).toBeLessThan(8);
    expect(readYamlDefinition(yaml, "agent.yaml").data).toEqual(data);
  });

  it("refuses a cycle, at the value that repeats", () => {
    const data: Record<string, unknown> = { tools: [] };
    (data.tools as unknown[]).push(data);

    expect(thrownBy(() => definitionToYaml(data)).message).toBe("tools[0]: contains itself (a cycle), which JSON data cannot; give the definition as a tree.");
  });

  const runs = fuzzRuns(300);
  it(`writes what readYamlDefinition reads back deep-equal (${runs} cases)`, () => {
    const text = fc.oneof(fc.constantFrom(...tricky), fc.string({ unit: "binary", maxLength: 20 }), fc.string({ unit: fc.constantFrom(...tricky, "a", " ", "\n", ":", "#"), maxLength: 6 }));
    const leaf = fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(text, tie("value"), { maxKeys: 5 })),
    }));
    const definition = fc.dictionary(text, value, { maxKeys: 6 });

    fc.assert(
      fc.property(definition, fc.option(text, { nil: undefined }), (data, comment) => {
        const yaml = definitionToYaml(data, { comment });

        expect(readYamlDefinition(yaml, "agent.yaml").data).toEqual(data);
      }),
      fuzzParameters(runs),
    );
  });
});
