import { encodeToolData, sharedFragmentMinLength } from "../../codegen/emit/encodeToolData";
import { renderModule } from "../../codegen/emit/renderModule";
import type { ToolModel } from "../../codegen/model";
import { decodeToolData } from "../../src/tools/encodedToolSchemas";

const info = { module: "src/tools.generated.ts", command: "npx toolwright codegen" };

const address = {
  type: "object",
  properties: { street: { type: "string", description: "Street and number." }, city: { type: "string" } },
  required: ["street", "city"],
  additionalProperties: false,
};

function model(member: string, schema: ToolModel["schema"], extra: Partial<ToolModel> = {}): ToolModel {
  return {
    kind: "method",
    ownerName: "Tools",
    member,
    isStatic: false,
    file: "/app/src/tools.ts",
    source: "src/tools.ts",
    name: member,
    description: `${member} things.`,
    parameters: [{ name: "input", role: "llm", optional: false }],
    parameterTypes: { parameters: [{ label: "input", type: "unknown", rest: false }], imports: [] },
    schema,
    strict: true,
    dates: [],
    options: { inputsFromState: {}, outputsToState: {} },
    ...extra,
  };
}

const objectOf = (properties: Record<string, object>): ToolModel["schema"] => ({ type: "object", properties: properties as Record<string, ToolModel["schema"]>, required: Object.keys(properties), additionalProperties: false });

describe("encodeToolData", () => {
  it("writes a fragment found in two tools once, and decoding gives each tool its full schema back", () => {
    const recursive = {
      type: "object",
      properties: { tree: { $ref: "#/$defs/Node" } },
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } }, home: address } } },
    };
    const models = [
      model("ship", objectOf({ to: address, from: address })),
      model("bill", objectOf({ to: address })),
      model("walk", recursive),
      model("inject", objectOf({}), { parameters: [{ name: "home", role: "stateKey", stateKey: "home", optional: false, schema: address }] }),
    ];

    const text = encodeToolData(models);
    const data = JSON.parse(text) as { shared: unknown[] };

    expect(JSON.stringify(address).length).toBeGreaterThanOrEqual(sharedFragmentMinLength);
    expect(data.shared).toEqual([address]);
    expect(text.split(JSON.stringify(address).slice(1, -1))).toHaveLength(2);
    expect(text).toContain('"to":{"$shared":0},"from":{"$shared":0}');
    const decoded = decodeToolData(text, info).flat();
    expect(decoded.map((t) => t.schema)).toEqual(models.map((m) => m.schema));
    expect(decoded[3]!.parameters).toEqual(models[3]!.parameters);
    // Each tool gets its own copy.
    expect(decoded[0]!.schema.properties!.to).not.toBe(decoded[1]!.schema.properties!.to);
  });

  it("keeps fragments that are short or found in one tool only inline", () => {
    const small = { type: "string" };
    const text = encodeToolData([model("a", objectOf({ x: small, y: address, z: address })), model("b", objectOf({ x: small }))]);

    expect(JSON.parse(text)).toMatchObject({ shared: [] });
    expect(text).not.toContain("$shared\":0");
  });

  it("shares nothing when a schema uses the reference key itself, so that decoding cannot misread it", () => {
    const odd = { ...address, default: { $shared: 0 } };
    const models = [model("a", objectOf({ x: odd })), model("b", objectOf({ x: odd }))];
    const text = encodeToolData(models);

    expect(JSON.parse(text)).toMatchObject({ shared: [] });
    expect(decodeToolData(text, info).flat().map((t) => t.schema)).toEqual(models.map((m) => m.schema));
  });

  it("leaves out fields at their usual value, writes a schema of the usual form as its properties and groups tools by owner", () => {
    const usual = model("search", objectOf({ input: { type: "string" } }));
    const other = model("find", objectOf({ input: { type: "string" } }), {
      ownerName: "Other",
      isStatic: true,
      name: "find_things",
      parameters: [
        { name: "input", role: "llm", optional: false },
        { name: "limit", role: "llm", optional: true, default: 10 },
        { name: "state", role: "state", optional: false },
      ],
      strict: false,
      strictReason: "because",
      options: { inputsFromState: { user: "user" }, outputsToState: {} },
    });
    const withDefs = model("walk", { type: "object", properties: { input: { $ref: "#/$defs/Node" } }, required: ["input"], additionalProperties: false, $defs: { Node: { type: "string" } } });

    const text = encodeToolData([usual, withDefs, other]);

    expect(text.split("\n")).toEqual([
      '{"format":3,"shared":[],"owners":[',
      '{"source":"src/tools.ts","tools":[',
      '{"member":"search","description":"search things.","parameters":[{"name":"input"}],"properties":{"input":{"type":"string"}}},',
      '{"member":"walk","description":"walk things.","parameters":[{"name":"input"}],"schema":{"type":"object","properties":{"input":{"$ref":"#/$defs/Node"}},"required":["input"],"additionalProperties":false,"$defs":{"Node":{"type":"string"}}}}',
      "]},",
      '{"source":"src/tools.ts","tools":[',
      '{"member":"find","static":true,"name":"find_things","description":"find things.","parameters":[{"name":"input"},{"name":"limit","optional":true,"default":10},{"name":"state","role":"state"}],' +
        '"properties":{"input":{"type":"string"}},"strictReason":"because","options":{"inputsFromState":{"user":"user"},"outputsToState":{}}}',
      "]}",
      "]}",
    ]);
    const decoded = decodeToolData(text, info);
    expect(decoded.map((tools) => tools.length)).toEqual([2, 1]);
    const expected = [usual, withDefs, other].map((m) => ({
      kind: m.kind,
      member: m.member,
      static: m.isStatic,
      name: m.name,
      description: m.description,
      parameters: m.parameters,
      schema: { ...m.schema, ...(m === other ? { required: ["input"] } : {}) },
      strict: m.strict,
      ...(m.strictReason ? { strictReason: m.strictReason } : {}),
      options: m.options,
      source: m.source,
    }));
    expect(decoded.flat()).toEqual(expected);
  });
});

describe("renderModule data", () => {
  it("writes the data as a String.raw template whose text is the JSON, backticks and ${ included", () => {
    const tricky = 'Quote " backslash \\ backtick ` and ${x} and \\u0060';
    const text = renderModule([model("a", objectOf({ x: { type: "string", description: tricky } }), { description: tricky })], {
      outFile: "/app/src/tools.generated.ts",
      moduleLabel: "src/tools.generated.ts",
      command: "npx toolwright codegen",
      runtimeImport: "toolwright",
    });
    const start = text.indexOf("String.raw`") + "String.raw`".length;
    const body = text.slice(start, text.indexOf("`,\n", start));

    expect(body).not.toMatch(/`|\$\{/);
    // What String.raw gives at run time is the template's raw text.
    const evaluated = new Function(`return String.raw\`${body}\`;`)() as string;
    expect(evaluated).toBe(body);
    const [[tool]] = decodeToolData(evaluated, info);
    expect(tool!.description).toBe(tricky);
    expect(tool!.schema.properties!.x).toEqual({ type: "string", description: tricky });
  });
});
