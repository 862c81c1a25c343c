import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { toStrictSchema } from "toolwright/openai";
import { finalOutput } from "../../../src/agent/finalOutput";
import { decodeToolData } from "../../../src/tools/encodedToolSchemas";
import { strictCompatibility } from "../../../src/tools/strictCompatibility";
import { jsonSchemaFormat } from "../../../src/chat/openai/openaiConverter";
import { openaiStrictViolations } from "../../helpers/openaiStrictRules";

const fixtures = join(__dirname, "../../codegen/fixtures/valid");

/** Every tool schema of the codegen corpus: the data of each fixture's expected generated module. */
function corpusTools(): Array<{ name: string; schema: Record<string, unknown> }> {
  return readdirSync(fixtures).flatMap((fixture) => {
    const text = readFileSync(join(fixtures, fixture, "expected.generated.ts"), "utf8");
    const data = /String\.raw`([\s\S]*?)`,\n/.exec(text)?.[1];
    if (data === undefined) return [];
    return decodeToolData(data, { module: fixture, command: "codegen" })
      .flat()
      .map((tool) => ({ name: `${fixture}: ${tool.member}`, schema: tool.schema }));
  });
}

describe("toStrictSchema", () => {
  const tools = corpusTools();

  it("reads every tool of the codegen corpus", () => {
    const members = readdirSync(fixtures).reduce((sum, fixture) => sum + (readFileSync(join(fixtures, fixture, "expected.generated.ts"), "utf8").match(/\{"member":/g)?.length ?? 0), 0);

    expect(tools).toHaveLength(members);
  });

  it("makes every strict-compatible tool schema of the codegen corpus one that OpenAI's strict rules accept", () => {
    const compatible = tools.filter((tool) => strictCompatibility(tool.schema).compatible);
    const refused = compatible.map((tool) => ({ tool: tool.name, violations: openaiStrictViolations(toStrictSchema(tool.schema)) })).filter((r) => r.violations.length > 0);

    expect(compatible.length).toBeGreaterThan(tools.length / 2);
    expect(refused).toEqual([]);
  });

  it("leaves strict mode off only for tool schemas whose strict form OpenAI would refuse or that strict mode cannot express", () => {
    const incompatible = tools.filter((tool) => !strictCompatibility(tool.schema).compatible);
    // Each of these, sent with strict: true as it is, would be refused.
    expect(incompatible.filter((tool) => openaiStrictViolations(tool.schema).length === 0).map((tool) => tool.name)).toEqual([]);
  });
});

/** What the `openai` SDK's own helper makes of a zod schema: its schema, or the message it throws. */
function sdkFormat(schema: z.ZodObject): { schema: unknown } | { throws: string } {
  try {
    return { schema: zodResponseFormat(schema, "final_output").json_schema.schema };
  } catch (error) {
    return { throws: (error as Error).message };
  }
}

/** What toolwright sends for the same zod schema as an outputSchema. */
function ourFormat(schema: z.ZodObject) {
  const sent = jsonSchemaFormat(finalOutput(schema, "Agent")!.responseFormat);
  return { strict: sent.strict, violations: sent.strict ? openaiStrictViolations(sent.schema) : [] };
}

describe("zodResponseFormat (openai/helpers/zod) beside toolwright's outputSchema", () => {
  it("is refused by the SDK for optional keys, at the root and nested, where toolwright sends the nullable strict form", () => {
    const optional = z.object({ title: z.string(), priority: z.enum(["low", "high"]).optional() });
    const nested = z.object({ owner: z.object({ name: z.string(), email: z.string().optional() }) });

    expect(sdkFormat(optional)).toEqual({
      throws: "Schema field at `properties/priority` uses `.optional()` without `.nullable()` which is not supported by the API. See: https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses#all-fields-must-be-required",
    });
    expect(sdkFormat(nested)).toEqual({
      throws: "Schema field at `properties/owner/properties/email` uses `.optional()` without `.nullable()` which is not supported by the API. See: https://platform.openai.com/docs/guides/structured-outputs?api-mode=responses#all-fields-must-be-required",
    });
    expect(ourFormat(optional)).toEqual({ strict: true, violations: [] });
    expect(ourFormat(nested)).toEqual({ strict: true, violations: [] });
  });

  it("is refused by the SDK for an open map and a tuple, which toolwright sends without strict mode", () => {
    expect(sdkFormat(z.object({ labels: z.record(z.string(), z.string()) }))).toEqual({ throws: "Object schema at `properties/labels` must set `additionalProperties: false` to be compatible with strict Structured Outputs." });
    expect(sdkFormat(z.object({ pair: z.tuple([z.string(), z.number()]) }))).toEqual({ throws: "Schema at `properties/pair` uses tuple-form `items`, which cannot be represented in strict Structured Outputs." });
    expect(ourFormat(z.object({ labels: z.record(z.string(), z.string()) }))).toEqual({ strict: false, violations: [] });
    expect(ourFormat(z.object({ pair: z.tuple([z.string(), z.number()]) }))).toEqual({ strict: false, violations: [] });
  });

  it("passes keywords the strict rules refuse (minLength, an untyped any), which toolwright leaves out or sends without strict mode", () => {
    const sdk = (schema: z.ZodObject) => openaiStrictViolations((sdkFormat(schema) as { schema: unknown }).schema).map((v) => `${v.path}: ${v.message}`);

    expect(sdk(z.object({ title: z.string().min(1) }))).toEqual(["$.properties.title: 'minLength' is not permitted"]);
    // The documented rules refuse `default` too, but the API takes it (see test/fixtures/vendors/openai).
    expect(sdk(z.object({ n: z.number().default(3) }))).toEqual([]);
    expect(sdk(z.object({ a: z.any() }))).toEqual(["$.properties.a: schema must have a 'type' key"]);
    expect(ourFormat(z.object({ title: z.string().min(1) }))).toEqual({ strict: true, violations: [] });
    expect(ourFormat(z.object({ n: z.number().default(3) }))).toEqual({ strict: true, violations: [] });
    expect(ourFormat(z.object({ a: z.any() }))).toEqual({ strict: false, violations: [] });
  });

  it("makes a discriminated union strict (anyOf), where toolwright, given zod's oneOf, sends it without strict mode", () => {
    const shape = z.object({ shape: z.discriminatedUnion("kind", [z.object({ kind: z.literal("a") }), z.object({ kind: z.literal("b") })]) });

    expect(openaiStrictViolations((sdkFormat(shape) as { schema: unknown }).schema)).toEqual([]);
    expect(ourFormat(shape)).toEqual({ strict: false, violations: [] });
  });
});
