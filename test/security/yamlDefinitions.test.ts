import fc from "fast-check";
import { DefinitionError } from "../../src/errors";
import { readYamlDefinition, type YamlPosition } from "../../src/yaml/yamlDocument";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

type Path = (string | number)[];

const seeds = [
  `# The support agent
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
  - tool: search
    settings: &shared
      description: Finds things.
  - toolset: admin
    settings: *shared
exitConditions: [text, "done"]
stateSchema:
  notes: { type: { type: array, items: { type: string } }, handler: mergeLists }
`,
  `version: 1
base: &base { type: openai }
chatGenerator: *base
__proto__: { polluted: true }
tools:
  - { class: A, __proto__: { polluted: true } }
  - ? tool
    : search
userPrompt: >-
  folded
  text
`,
  `{ "version": 1, "chatGenerator": { "type": "scripted" }, "tools": [ { "tool": "a" } ], "maxAgentSteps": 8 }`,
  `lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]
lol1: &l1 [*l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0]
lol2: &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1]
lol3: [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2]
`,
];
const tokens = [":", ": ", "-", "- ", "? ", "[", "]", "{", "}", ",", "&a ", "*a", "&l0 ", "*l2", "!", "!!binary ", "!!js/function ", "!!set ", "!!str ", "!!int ", "!foo ", "|", "|-", "|2+", ">", "'", '"', "#", "%YAML 1.1\n", "%TAG !e! tag:e.com,2000:\n", "---\n", "...\n", "\n", "  ", "\t", "<<: ", "__proto__: ", "constructor: ", "polluted: ", "prototype: ", "~", "null", "1e999", ".inf", ".nan", "0x1F", "\\", "\\u0000", "\uFEFF", "\u0000", "\r\n", "\u2028", "🎉", "\uD800", "yes", "1: ", "[a]: "];
const token = fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 4 }));

const mutatedYaml = fc
  .tuple(fc.constantFrom(...seeds), fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 8 }), insert: token }), { minLength: 1, maxLength: 6 }))
  .map(([seed, edits]) => edits.reduce((text, { at, remove, insert }) => text.slice(0, at % (text.length + 1)) + insert + text.slice((at % (text.length + 1)) + remove), seed));
const tokenSoup = fc.array(fc.oneof(token, fc.constantFrom("a", "b", "1", "x: y\n")), { maxLength: 40 }).map((parts) => parts.join(""));
const byteStrings = fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.boolean()).map(([bytes, latin1]) => Buffer.from(bytes).toString(latin1 ? "latin1" : "utf8"));
const hostileText = fc.oneof({ arbitrary: mutatedYaml, weight: 3 }, { arbitrary: tokenSoup, weight: 2 }, { arbitrary: byteStrings, weight: 1 });
const pathSegment = fc.oneof(fc.constantFrom("tools", "settings", "__proto__", "version", "0", ""), fc.string({ maxLength: 3 }), fc.integer({ min: -2, max: 12 }));

const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const prototypeNames = prototypes.map((prototype) => Object.getOwnPropertyNames(prototype).sort());

function expectPrototypesUnchanged(): void {
  expect(prototypes.map((prototype) => Object.getOwnPropertyNames(prototype).sort())).toEqual(prototypeNames);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

// A JSON tree: JSON scalars, arrays and plain objects, each reached once (no shared or cyclic parts).
function isJsonTree(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || seen.has(value)) return false;
  seen.add(value);
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && value.every((item) => isJsonTree(item, seen));
  return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every((entry) => isJsonTree(entry, seen));
}

// Every path of the data, the first 200 of them.
function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (out.length >= 200) return out;
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], out));
  else if (typeof value === "object" && value !== null) for (const [key, entry] of Object.entries(value)) pathsOf(entry, [...path, key], out);
  return out;
}

function expectInside(text: string, position: YamlPosition): void {
  const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split("\n");
  expect(Number.isInteger(position.line) && Number.isInteger(position.column)).toBe(true);
  expect(position.line).toBeGreaterThanOrEqual(1);
  expect(position.line).toBeLessThanOrEqual(lines.length);
  expect(position.column).toBeGreaterThanOrEqual(1);
  expect(position.column).toBeLessThanOrEqual(lines[position.line - 1]!.length + 1);
}

describe("hostile YAML definitions", () => {
  const runs = fuzzRuns(300);
  it(
    `either read as JSON data or throw a DefinitionError inside the file, never touching a prototype (${runs} cases)`,
    () => {
      fc.assert(
        fc.property(hostileText, fc.array(fc.array(pathSegment, { maxLength: 3 }), { maxLength: 4 }), (text, tails) => {
          let definition;
          try {
            definition = readYamlDefinition(text, "agent.yaml");
          } catch (error) {
            expect(error).toBeInstanceOf(DefinitionError);
            const { location, message } = error as DefinitionError;
            expectInside(text, location!);
            expect(message.startsWith(`agent.yaml:${location!.line}:${location!.column}: `)).toBe(true);
            expectPrototypesUnchanged();
            return;
          }
          expectPrototypesUnchanged();
          expect(isJsonTree(definition.data)).toBe(true);
          const paths = pathsOf(definition.data);
          for (const path of [...paths, ...tails, ...tails.map((tail) => [...paths[paths.length - 1]!, ...tail])]) {
            expectInside(text, definition.locate(path));
            expectInside(text, definition.locate(path, { key: true }));
            const { location } = definition.locateError(new DefinitionError(path, "is wrong."));
            expect(location).toEqual({ file: "agent.yaml", ...definition.locate(path) });
          }
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 20),
  );

  it("starts mutations from three valid definitions and one billion laughs", () => {
    for (const seed of seeds.slice(0, 3)) expect(isJsonTree(readYamlDefinition(seed, "agent.yaml").data)).toBe(true);
    expect(() => readYamlDefinition(seeds[3]!, "agent.yaml")).toThrow(DefinitionError);
  });
});
