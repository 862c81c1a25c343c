import { decodeToolData } from "../../src/tools/encodedToolSchemas";
import { clearToolSchemas, generatedEntriesOf } from "../../src/tools/schemaRegistry";
import { type GeneratedToolEntry, registerToolSchemas, StaleSchemaError } from "toolwright";

const info = { module: "src/tools.generated.ts", command: "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts" };

class SupportTools {}
class BillingTools {}

const address = { type: "object", properties: { street: { type: "string" } }, required: ["street"], additionalProperties: false };

function tool(member: string, schema: object): string {
  return JSON.stringify({
    kind: "method",
    member,
    static: false,
    name: member,
    description: `Does ${member}.`,
    parameters: [{ name: "to", role: "llm", optional: false }],
    schema,
    strict: true,
    options: { inputsFromState: {}, outputsToState: {} },
    source: "src/tools.ts",
  });
}

const data = `{"format":2,"shared":[
${JSON.stringify(address)}
],"tools":[
${tool("ship", { type: "object", properties: { to: { $shared: 0 } } })},
${tool("bill", { type: "object", properties: { to: { $shared: 0 } } })}
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
    const entry: GeneratedToolEntry = { ...(JSON.parse(tool("ship", address)) as Omit<GeneratedToolEntry, "owner">), owner: () => SupportTools };

    expect(registerToolSchemas([entry], info)).toEqual([entry]);
    expect(generatedEntriesOf(SupportTools).map((r) => r.entry)).toEqual([entry]);
  });

  it("throws a StaleSchemaError asking to re-run codegen for data it cannot read", () => {
    const attempt = (owners: Array<() => unknown>, text: string) => () => registerToolSchemas({ owners, data: text }, info);
    const rerun = "Run `npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts` to regenerate it.";

    expect(attempt([], '{"format":3,"shared":[],"tools":[]}')).toThrow(
      new StaleSchemaError(info.module, `src/tools.generated.ts cannot be read: it was written in format 3, and this version of toolwright reads format 2. ${rerun}`),
    );
    expect(attempt([() => SupportTools], data)).toThrow(new StaleSchemaError(info.module, `src/tools.generated.ts cannot be read: it lists 1 owners for 2 tools. ${rerun}`));
    expect(attempt([], "{")).toThrow(StaleSchemaError);
    expect(attempt([() => SupportTools], data.replace('"$shared":0}}}', '"$shared":7}}}'))).toThrow(/its shared fragment 7 is missing/);
  });
});

describe("decodeToolData with a __proto__ property name", () => {
  it("keeps it as own data when expanding shared fragments", () => {
    const data = `{"format":2,"shared":[{"type":"object","properties":{"__proto__":{"type":"string"}}}],"tools":[{"kind":"function","member":"f","static":false,"name":"f","description":"","parameters":[],"schema":{"type":"object","properties":{"a":{"$shared":0}}},"strict":false,"options":{"inputsFromState":{},"outputsToState":{}},"source":"f.ts"}]}`;

    const [tool] = decodeToolData(data, { module: "m.ts", command: "codegen" });

    const nested = (tool!.schema.properties!.a as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(nested)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
  });
});
