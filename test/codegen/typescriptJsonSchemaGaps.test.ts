import * as path from "node:path";
import * as TJS from "typescript-json-schema";
import type { JsonSchema } from "../../src/tools/jsonSchema";
import { runFixture } from "./helpers/fixtures";

// Codegen could turn named types into schemas with typescript-json-schema, except where its output
// is wrong. These tests pin the two constructs it gets wrong (the value type of Record<string, X>,
// and the declaration order of literal unions and enums), which is why codegen resolves types in
// its own ts-morph pass, and show the fixtures that cover them come out right.

const gapsFile = path.join(__dirname, "fixtures", "typescript-json-schema", "gaps.ts");
const settings: TJS.PartialArgs = { required: true, noExtraProps: true };

let program: TJS.Program;
beforeAll(() => {
  program = TJS.getProgramFromFiles([gapsFile], { strict: true, skipLibCheck: true, lib: ["es2022"], types: [] });
});

function tjsSchema(typeName: string): TJS.Definition {
  const schema = TJS.generateSchema(program, typeName, settings);
  if (!schema) throw new Error(`typescript-json-schema produced no schema for ${typeName}.`);
  return schema;
}

const fixtureRuns = new Map<string, ReturnType<typeof runFixture>>();

async function toolwrightParameter(fixture: string, toolName: string, parameter: string): Promise<JsonSchema> {
  if (!fixtureRuns.has(fixture)) fixtureRuns.set(fixture, runFixture("valid", fixture));
  const result = await fixtureRuns.get(fixture)!;
  expect(result.diagnostics).toEqual([]);
  expect(result.stale).toEqual([]);
  const tool = result.tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`Fixture ${fixture} has no tool '${toolName}'.`);
  return tool.schema.properties![parameter]!;
}

describe("typescript-json-schema", () => {
  it("drops the value type of Record<string, X>", () => {
    const schema = tjsSchema("Scores");
    expect(schema.properties!.byName).toEqual({ $ref: "#/definitions/Record%3Cstring%2Cnumber%3E" });
    // With noExtraProps the map rejects every key, and `number` appears nowhere.
    expect(schema.definitions!["Record<string,number>"]).toEqual({ type: "object", additionalProperties: false });
  });

  it("sorts the values of a literal union instead of keeping declaration order", () => {
    expect(tjsSchema("Priority")).toMatchObject({ type: "string", enum: ["high", "low", "medium"] });
    expect(tjsSchema("Size")).toMatchObject({ type: "number", enum: [10, 20, 30] });
  });

  it("sorts the values of an enum once it is in a union", () => {
    expect(tjsSchema("Paint").properties!.color).toEqual({ anyOf: [{ type: "string", enum: ["blue", "green", "red"] }, { type: "null" }] });
  });
});

describe("generateToolSchemas on the same constructs", () => {
  it("keeps the value type of Record<string, X> in additionalProperties", async () => {
    expect(await toolwrightParameter("records", "maps", "scores")).toEqual({ type: "object", additionalProperties: { type: "number" }, description: "Record of numbers." });
  });

  it("keeps literal unions and enums in declaration order", async () => {
    expect(await toolwrightParameter("literals", "unions", "priority")).toMatchObject({ type: "string", enum: ["low", "medium", "high"] });
    expect(await toolwrightParameter("literals", "unions", "size")).toMatchObject({ type: "number", enum: [30, 10, 20] });
    expect(await toolwrightParameter("nullable", "nullable", "color")).toMatchObject({ type: ["string", "null"], enum: ["red", "green", null] });
  });
});
