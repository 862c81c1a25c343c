import { z } from "zod";
import { Agent } from "../../src";
import { linearZodType } from "../../src/definition/linearZodType";
import type { JsonSchema } from "../../src/tools/jsonSchema";

const scripted = { type: "ScriptedChatGenerator", options: { script: [] } };
const jsonForm = (type: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(type, { io: "output" }) as Record<string, unknown>;
  return rest;
};

describe("linearZodType", () => {
  it("keeps the JSON Schema form of a type with patterns", () => {
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$", description: "A code." }, tags: { type: "array", items: { type: "string", pattern: "^t" } } }, required: ["code"], additionalProperties: false };

    expect(jsonForm(linearZodType(schema as JsonSchema))).toEqual(schema);
  });

  it("keeps patternProperties with additionalProperties, and a propertyNames pattern", () => {
    const schema = { type: "object", patternProperties: { "^(x+x+)+y$": { type: "string" } }, additionalProperties: false, propertyNames: { pattern: "^[a-z]+$" } };

    expect(jsonForm(linearZodType(schema as JsonSchema))).toMatchObject(schema);
  });

  it("checks patterns, patternProperties and propertyNames with RE2", () => {
    const type = linearZodType({ type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } }, patternProperties: { "^x+y$": { type: "number" } }, additionalProperties: false, propertyNames: { pattern: "^[a-z]+$" } } as JsonSchema);

    expect(type.safeParse({ code: "aaa", xxy: 1 }).success).toBe(true);
    expect(type.safeParse({ code: `${"a".repeat(50_000)}!` }).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)).toEqual(['code: must match pattern "^(a+)+$"']);
    expect(type.safeParse({ xxy: "one" }).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)).toEqual(["xxy: must be number"]);
    expect(type.safeParse({ other: 1 }).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`)).toEqual([": must NOT have additional properties"]);
    expect(type.safeParse({ ["x".repeat(50_000)]: 1 }).success).toBe(false);
  });

  it("leaves a type without patterns as zod converts it", () => {
    const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] };

    expect(jsonForm(linearZodType(schema as JsonSchema))).toEqual(jsonForm(z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema)));
  });

  it("round-trips a definition whose state type and outputSchema have patterns", () => {
    const definition = {
      version: 1,
      chatGenerator: scripted,
      stateSchema: { code: { type: { type: "string", pattern: "^(a+)+$" } } },
      outputSchema: { type: "object", properties: { answer: { type: "string", pattern: "^(\\w+\\s?)*$" } }, required: ["answer"] },
    };

    const written = Agent.fromJSON(definition).toJSON();

    expect(written.stateSchema).toEqual(definition.stateSchema);
    expect(written.outputSchema).toEqual(definition.outputSchema);
  });
});
