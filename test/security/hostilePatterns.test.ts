// Patterns from data on each surface (an MCP server's input schema, a JSON Schema Tool, a
// definition's state type and outputSchema), with inputs a backtracking RegExp takes exponential
// time on. Each scenario runs in a child process (runBounded) that is killed if it stalls, so a
// regression fails here instead of hanging the suite; no timing is asserted.
import * as path from "node:path";
import { runBounded } from "../helpers/runBounded";

const scenarios = path.join(__dirname, "fixtures/hostilePatternScenarios.ts");
const patterns = { nested: "^(a+)+$", alternation: "(a|aa)+$", overlap: "(x+x+)+y", words: "^(\\w+\\s?)*$" };
const shown = { nested: `"${"a".repeat(56)}...`, alternation: `"${"a".repeat(56)}...`, overlap: `"${"x".repeat(56)}...`, words: `"${"word ".repeat(11)}w...` };
type Results = Array<{ result: string; error: boolean }>;

function refused(tool: string, name: keyof typeof patterns): { result: string; error: boolean } {
  return { result: `Tool '${tool}' was called with invalid arguments: ${name} must match pattern "${patterns[name]}" (got string ${shown[name]}). Call the tool again with corrected arguments.`, error: true };
}

describe("patterns from data", () => {
  it("refuses adversarial arguments to an MCP server's tool, leaves out a tool whose pattern RE2 cannot run, and passes matching arguments on", async () => {
    const outcome = await runBounded<{ warnings: string[]; tools: string[]; results: Results }>(scenarios, "mcpServer", []);

    expect(outcome.warnings).toEqual([
      `unusable onlyUsers: McpToolset 'pattern-server': the server's tool 'onlyUsers' has an input schema whose pattern "^(?!admin)" at #/properties/user/pattern cannot be matched in linear time (RE2 has no lookahead or lookbehind): patterns from a server run on RE2 so that no input can stall the process; it is left out, the other tools are used.`,
    ]);
    expect(outcome.tools).toEqual(["match"]);
    expect(outcome.results).toEqual([
      refused("match", "nested"),
      refused("match", "alternation"),
      refused("match", "overlap"),
      refused("match", "words"),
      { result: '{"nested":"aaaa","alternation":"aa","overlap":"xxy","words":"two words"}', error: false },
    ]);
  }, 90_000);

  it("refuses adversarial arguments to a Tool with JSON Schema parameters", async () => {
    const results = await runBounded<Results>(scenarios, "toolParameters", []);

    expect(results).toEqual([refused("match", "nested"), refused("match", "alternation"), refused("match", "overlap"), refused("match", "words"), { result: '{"nested":"aaaa"}', error: false }]);
  }, 90_000);

  it("keeps adversarial values out of a definition's state keys", async () => {
    const results = await runBounded<Results>(scenarios, "stateType", []);

    expect(results).toEqual([
      ...(Object.keys(patterns) as Array<keyof typeof patterns>).map((name) => ({
        result: `Tool 'remember' ran, but its output could not be merged into state key '${name}': State key '${name}' rejected a value that does not match its type: ${name}: must match pattern "${patterns[name]}". The value was not stored.`,
        error: true,
      })),
      { result: '{"nested":"aaaa"}', error: false },
      { result: '["aaaa",null,null,null]', error: false },
    ]);
  }, 90_000);

  it("sends an adversarial final answer back to the model against a definition's outputSchema", async () => {
    const outcome = await runBounded<{ corrections: string[]; output: unknown }>(scenarios, "outputSchema", []);

    expect(outcome.corrections).toEqual([
      `Your final answer does not match the required output schema:\n${Object.entries(patterns).map(([name, pattern]) => `- ${name}: must match pattern "${pattern}"`).join("\n")}\nAnswer again with only a JSON object that matches the schema.`,
    ]);
    expect(outcome.output).toEqual({ nested: "aa", alternation: "a", overlap: "xxy", words: "ok then" });
  }, 90_000);

  it("checks every string format of ajv-formats and zod against long adversarial strings without stalling", async () => {
    // The formats' regular expressions are the libraries' own (not from data); the inputs are hostile.
    // ajv accepts some of them where the format allows such text (a URI reference, a valid regex,
    // formats it only annotates); zod checks only the formats it knows and takes the others as plain strings.
    const outcome = await runBounded<{ checks: number; ajvAccepted: string[]; zodAccepted: number }>(scenarios, "formats", []);

    expect(outcome.checks).toBe(26 * 12 * 2);
    expect(outcome.ajvAccepted).toEqual(["uri-reference", "uri-template", "regex", "int32", "int64", "float", "double", "password", "binary"]);
    expect(outcome.zodAccepted).toBe(182);
  }, 90_000);

  it.each([
    ["(?=a)b", "RE2 has no lookahead or lookbehind"],
    ["(?<!a)b", "RE2 has no lookahead or lookbehind"],
    ["(a)\\1", "RE2 has no backreferences"],
  ])("refuses a definition whose state type has the pattern %s, naming its path", async (pattern, detail) => {
    const message = await runBounded<string>(scenarios, "definitionError", [pattern]);

    expect(message).toBe(
      `stateSchema.code.type.pattern: is ${JSON.stringify(pattern)}, a pattern that cannot be matched in linear time (${detail}): the patterns of a definition run on RE2 so that no input can stall the process; rewrite it without lookaround or backreferences.`,
    );
  }, 90_000);
});
