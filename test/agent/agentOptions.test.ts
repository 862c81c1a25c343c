import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { Agent, ConfigurationError, DefinitionError, Tool } from "toolwright";
import { ScriptedChatGenerator } from "toolwright/testing";
import { agentOptions } from "../../src/agent/agentOptions";

// Every option a definition may hold, with JSON values each check must agree on: `valid` are
// accepted by new Agent, Agent.fromJSON and the published JSON Schema; `invalid` are refused by
// all three; `codeOnly` are accepted in code but refused as data, where the spec gives the
// definition a narrower rule (a bound an untrusted file must keep); `unknownName` are refused by
// Agent.fromJSON for naming no tool of the Agent, which a JSON Schema cannot know, and accepted by
// new Agent, where a run may give the tool (Haystack main allows it; the run checks: #33).
const examples: Record<string, { valid: unknown[]; invalid: unknown[]; codeOnly: unknown[]; unknownName?: unknown[] }> = {
  name: { valid: ["desk", "x".repeat(200)], invalid: ["", "x".repeat(201), 42, null, ["desk"]], codeOnly: [] },
  systemPrompt: { valid: ["You help.", ""], invalid: [42, null, {}, ["You help."]], codeOnly: ["x".repeat(100_001)] },
  userPrompt: { valid: ["Find my tickets."], invalid: [false, null, {}], codeOnly: ["x".repeat(100_001)] },
  exitConditions: { valid: [["text"], ["escalate"], ["text", "escalate"]], invalid: [[], "text", [1], [""], null, {}], codeOnly: [], unknownName: [["texts"], ["text", "escalated"]] },
  maxAgentSteps: { valid: [1, 100, 100_000], invalid: [0, -1, 1.5, "3", null, true], codeOnly: [100_001] },
  maxOutputRetries: { valid: [0, 2, 100], invalid: [-1, 101, 0.5, "2", null], codeOnly: [] },
  toolConcurrency: { valid: [1, 4, 1_000], invalid: [0, 2.5, "4", null], codeOnly: [1_001] },
  toolTimeoutMs: { valid: [1, 30_000, 2_147_483_647], invalid: [0, -5, "100", null, false], codeOnly: [0.5, 1_500.5, 2_147_483_648] },
  maxToolResultChars: { valid: [1, 100_000, 1_000_000_000], invalid: [0, -1, 2.5, "500", null, false], codeOnly: [1_000_000_001] },
  raiseOnToolInvocationFailure: { valid: [true, false], invalid: ["true", 0, 1, null], codeOnly: [] },
};

const escalateTool = new Tool({
  name: "escalate",
  description: "Hand the conversation to a person.",
  parameters: { type: "object", properties: { reason: { type: "string" } }, required: ["reason"] },
  function: () => "escalated",
});

const published = JSON.parse(readFileSync(join(__dirname, "../../src/definition/agent-definition.schema.json"), "utf8")) as object;
const validateDefinition = new Ajv2020({ strict: false }).compile(published);

function definitionWith(option: string, value: unknown): Record<string, unknown> {
  return { version: 1, chatGenerator: { type: "ScriptedChatGenerator", options: { script: [] } }, tools: [{ tool: "escalate" }], [option]: value };
}

// What each of the three checks makes of the option: true for accepted, else the refusal.
function verdicts(option: string, value: unknown): { code: true | string; data: true | string; schema: boolean } {
  let code: true | string = true;
  try {
    new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [escalateTool], [option]: value });
  } catch (error) {
    if (!(error instanceof ConfigurationError) || error instanceof DefinitionError) throw error;
    code = `${error.subject}: ${error.message}`;
  }
  let data: true | string = true;
  try {
    Agent.fromJSON(definitionWith(option, value), { registry: { tools: { escalate: escalateTool } } });
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    data = String(error.path[0]);
  }
  return { code, data, schema: validateDefinition(definitionWith(option, value)) };
}

describe("agentOptions", () => {
  it("gives every option a definition holds valid, invalid and code-only examples here", () => {
    const inDefinitions = Object.entries(agentOptions)
      .filter(([, spec]) => "data" in spec && spec.data !== undefined)
      .map(([name]) => name);
    expect(inDefinitions).toEqual(Object.keys(examples));
  });

  describe.each(Object.entries(examples))("%s", (option, { valid, invalid, codeOnly, unknownName = [] }) => {
    it.each(valid.map((value) => [JSON.stringify(value).slice(0, 40), value]))("accepts %s in code, in a definition and in the JSON Schema", (_label, value) => {
      expect(verdicts(option, value)).toEqual({ code: true, data: true, schema: true });
    });

    it.each(invalid.map((value) => [JSON.stringify(value).slice(0, 40), value]))("refuses %s in code, in a definition (at the option) and in the JSON Schema", (_label, value) => {
      const { code, data, schema } = verdicts(option, value);
      expect(code).toMatch(/^Agent: Agent has /);
      expect({ data, schema }).toEqual({ data: option, schema: false });
    });

    if (codeOnly.length > 0) {
      it.each(codeOnly.map((value) => [JSON.stringify(value).slice(0, 40), value]))("accepts %s in code but refuses it in a definition and in the JSON Schema", (_label, value) => {
        expect(verdicts(option, value)).toEqual({ code: true, data: option, schema: false });
      });
    }

    if (unknownName.length > 0) {
      it.each(unknownName.map((value) => [JSON.stringify(value).slice(0, 40), value]))("accepts %s in code, where a run may give the tool, and refuses it in a definition", (_label, value) => {
        const { code, data } = verdicts(option, value);
        expect(code).toBe(true);
        expect(data).toBe(option);
      });
    }
  });

  it("refuses a raiseOnToolInvocationFailure that is not true or false", () => {
    expect(() => new Agent({ chatGenerator: new ScriptedChatGenerator([]), raiseOnToolInvocationFailure: "false" as never })).toThrow(
      new ConfigurationError("Agent", 'Agent has raiseOnToolInvocationFailure string "false": it must be true or false. Default false.'),
    );
  });
});
