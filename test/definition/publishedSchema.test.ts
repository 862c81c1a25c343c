import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { parse } from "yaml";
import { definitionJsonSchema } from "../../src/definition/publishedSchema";

const published = JSON.parse(readFileSync(join(__dirname, "../../src/definition/agent-definition.schema.json"), "utf8")) as object;

describe("the published JSON Schema of agent definitions", () => {
  test("is the format's schema as the code defines it (run `npm run schema` after changing the format)", () => {
    expect(published).toEqual(definitionJsonSchema());
  });

  test("accepts the example's agent.yaml and refuses what Agent.fromJSON refuses by shape", () => {
    const validate = new Ajv2020({ strict: false }).compile(published);
    const example = parse(readFileSync(join(__dirname, "../../examples/yaml-agent/agent.yaml"), "utf8")) as Record<string, unknown>;
    expect(validate(example)).toBe(true);
    expect(validate({ ...example, sytemPrompt: "x" })).toBe(false);
    expect(validate({ ...example, version: 2 })).toBe(false);
    expect(validate({ ...example, tools: [{ klass: "DeskTools" }] })).toBe(false);
    expect(validate({ ...example, maxAgentSteps: 0 })).toBe(false);
    expect(validate({ ...example, snapshotKey: "a-secret" })).toBe(false);
  });

  test("describes every key for editors", () => {
    const properties = (published as { properties: Record<string, { description?: string }> }).properties;
    const undocumented = Object.entries(properties).filter(([, schema]) => !schema.description).map(([key]) => key);
    expect(undocumented).toEqual([]);
  });
});
