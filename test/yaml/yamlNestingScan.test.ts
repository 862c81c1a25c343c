import { deepNestingOffset } from "../../src/yaml/yamlNestingScan";
import { readYamlDefinition } from "../../src/yaml/yamlDocument";
import * as path from "node:path";
import { runBounded } from "../helpers/runBounded";
import { readError } from "./readError";

const scenarios = path.join(__dirname, "fixtures/deepYamlScenarios.ts");

const depthReason = "nests mappings and sequences more than 100 levels deep, the limit for a definition file; flatten it.";
const mebibyte = 1_048_576;

describe("deepNestingOffset", () => {
  it("finds the flow collection that makes level 101 (the top-level mapping is level 1)", () => {
    expect(deepNestingOffset(`a: ${"[".repeat(99)}`, 100)).toBeUndefined();
    expect(deepNestingOffset(`a: ${"[".repeat(100)}`, 100)).toBe(102);
    expect(deepNestingOffset(`a: ${"{b: ".repeat(100)}`, 100)).toBe(3 + 99 * 4);
  });

  it("counts compact block entries and the flow collections after them on one line", () => {
    expect(deepNestingOffset(`a:\n${"- ".repeat(99)}x\n`, 100)).toBeUndefined();
    expect(deepNestingOffset(`a:\n${"- ".repeat(100)}x\n`, 100)).toBe(3 + 99 * 2);
    expect(deepNestingOffset(`a:\n${"- ".repeat(50)}${"[".repeat(49)}\n`, 100)).toBeUndefined();
    expect(deepNestingOffset(`a:\n${"- ".repeat(50)}${"[".repeat(50)}\n`, 100)).toBe(3 + 100 + 49);
  });

  it.each([
    ["a double-quoted scalar", `a: "${"[".repeat(500)}\\" ["\nb: 1\n`],
    ["a single-quoted scalar", `a: '${"[".repeat(500)}'' ['\nb: 1\n`],
    ["a quoted scalar in a flow sequence", `a: [x, '${"[".repeat(500)}']\n`],
    ["a plain scalar", `a: x${"[".repeat(500)}\nb: it's ${"{".repeat(500)}\n`],
    ["a comment", `a: 1 # ${"[".repeat(500)}\n# ${"{".repeat(500)}\n`],
    ["a literal block scalar", `a: |\n  ${"[".repeat(500)}\n\n  ${"- ".repeat(500)}\nb: 1\n`],
    ["a folded block scalar in a sequence entry", `a:\n  - >-\n    ${"[".repeat(500)}\n  - x\n`],
  ])("does not count brackets in %s", (_what, text) => {
    expect(deepNestingOffset(text, 100)).toBeUndefined();
    expect(() => readYamlDefinition(text, "agent.yaml")).not.toThrow();
  });

  it("counts brackets after a quote inside a flow plain scalar, where YAML has no quoted scalar", () => {
    expect(deepNestingOffset(`a: [x '${"[".repeat(200)}`, 100)).toBe(7 + 98);
  });

  it("counts the brackets after a block scalar ends", () => {
    expect(deepNestingOffset(`a: |\n  text\nb: ${"[".repeat(100)}\n`, 100)).toBe(15 + 99);
  });
});

describe("readYamlDefinition nesting", () => {
  it.each([
    ["flowSequences", "agent.yaml:1:103"],
    ["flowMappings", "agent.yaml:1:400"],
    ["compactEntries", "agent.yaml:2:199"],
    ["afterAQuoteInAFlowScalar", "agent.yaml:1:106"],
  ])("refuses a 1 MiB file of %s before parsing it", async (name, at) => {
    // In a child process killed if it stalls: a jest timeout cannot interrupt a parser that never yields.
    const outcome = await runBounded<{ bytes: number; message: string }>(scenarios, "refusal", [name]);

    expect(outcome.bytes).toBeGreaterThan(mebibyte - 8);
    expect(outcome.message).toBe(`${at}: (definition): ${depthReason}`);
  }, 90_000);

  it("still refuses nesting by indentation at its path, after parsing", () => {
    const text = Array.from({ length: 101 }, (_, i) => `${" ".repeat(i)}k:`).join("\n") + " 1\n";

    expect(readError(text).message).toBe(`agent.yaml:101:101: ${"k.".repeat(99)}k: ${depthReason}`);
  });
});
