import { decodeToolData } from "../../src/tools/encodedToolSchemas";
import { clearToolSchemas, generatedEntriesOf } from "../../src/tools/schemaRegistry";
import { type GeneratedToolEntry, registerToolSchemas, StaleSchemaError } from "toolwright";

const info = { module: "src/tools.generated.ts", command: "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts" };

class SupportTools {}
class BillingTools {}

const address = { type: "object", properties: { street: { type: "string" } }, required: ["street"], additionalProperties: false };

function tool(member: string, schema: object): string {
  return JSON.stringify({ member, description: `Does ${member}.`, parameters: [{ name: "to" }], schema });
}

const data = `{"format":3,"shared":[
${JSON.stringify(address)}
],"owners":[
{"source":"src/tools.ts","tools":[
${tool("ship", { type: "object", properties: { to: { $shared: 0 } } })}
]},
{"source":"src/billing.ts","tools":[
${tool("bill", { type: "object", properties: { to: { $shared: 0 } } })}
]}
]}`;

beforeEach(() => clearToolSchemas());

describe("registerToolSchemas with encoded data", () => {
  it("decodes the data, expands shared fragments into each tool's schema, attaches the owners and returns the entries", () => {
    const entries = registerToolSchemas({ owners: [() => SupportTools, () => BillingTools], data }, info);

    expect(entries.map((e) => [e.member, e.owner()])).toEqual([["ship", SupportTools], ["bill", BillingTools]]);
    expect(entries[0]!.schema).toEqual({ type: "object", properties: { to: address } });
    expect(entries[0]!.schema.properties!.to).not.toBe(entries[1]!.schema.properties!.to);
    expect(generatedEntriesOf(BillingTools).map((r) => r.entry)).toEqual([entries[1]]);
  });

  it("still accepts an array of entries, the form of modules generated before the encoded data", () => {
    const entry: GeneratedToolEntry = {
      kind: "method",
      member: "ship",
      static: false,
      name: "ship",
      description: "Ships.",
      parameters: [{ name: "to", role: "llm", optional: false }],
      schema: address,
      strict: true,
      options: { inputsFromState: {}, outputsToState: {} },
      source: "src/tools.ts",
      owner: () => SupportTools,
    };

    expect(registerToolSchemas([entry], info)).toEqual([entry]);
    expect(generatedEntriesOf(SupportTools).map((r) => r.entry)).toEqual([entry]);
  });

  it("throws a StaleSchemaError asking to re-run codegen for data it cannot read", () => {
    const attempt = (owners: Array<() => unknown>, text: string) => () => registerToolSchemas({ owners, data: text }, info);
    const rerun = "Run `npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts` to regenerate it.";

    expect(attempt([], '{"format":2,"shared":[],"tools":[]}')).toThrow(
      new StaleSchemaError(info.module, `src/tools.generated.ts cannot be read: it was written in format 2, and this version of toolwright reads format 3. ${rerun}`),
    );
    expect(attempt([() => SupportTools], data)).toThrow(new StaleSchemaError(info.module, `src/tools.generated.ts cannot be read: it lists 1 owners for 2 in its data. ${rerun}`));
    expect(attempt([], '{"format":3,"shared":[],"owners":[{"source":"a.ts"}]}')).toThrow(new StaleSchemaError(info.module, `src/tools.generated.ts cannot be read: an owner in its data has no tools. ${rerun}`));
    expect(attempt([], "{")).toThrow(StaleSchemaError);
    expect(attempt([() => SupportTools], data.replace('"$shared":0}}}', '"$shared":7}}}'))).toThrow(/its shared fragment 7 is missing/);
  });
});

describe("decodeToolData with a __proto__ property name", () => {
  it("keeps it as own data when expanding shared fragments", () => {
    const data = `{"format":3,"shared":[{"type":"object","properties":{"__proto__":{"type":"string"}}}],"owners":[{"kind":"function","source":"f.ts","tools":[{"member":"f","description":"","parameters":[],"schema":{"type":"object","properties":{"a":{"$shared":0}}},"strict":false}]}]}`;

    const [[tool]] = decodeToolData(data, { module: "m.ts", command: "codegen" });

    const nested = (tool!.schema.properties!.a as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(nested)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
  });
});

describe("decodeToolData with a result kind", () => {
  it("keeps resultKind \"media\" on the entry of a tool that returns images or files", () => {
    const data = `{"format":3,"shared":[],"owners":[{"kind":"function","source":"f.ts","tools":[{"member":"chart","description":"","parameters":[],"properties":{},"resultKind":"media"},{"member":"count","description":"","parameters":[],"properties":{}}]}]}`;

    const [[chart, count]] = decodeToolData(data, { module: "m.ts", command: "codegen" });

    expect(chart!.resultKind).toBe("media");
    expect(count).not.toHaveProperty("resultKind");
  });
});
