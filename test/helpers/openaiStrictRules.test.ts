import { openaiStrictErrorMessage, openaiStrictViolations } from "./openaiStrictRules";

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false, ...extra });

describe("openaiStrictViolations", () => {
  it("accepts a closed object whose optional values are nullable, with $defs recursion and anyOf", () => {
    const schema = closed(
      {
        title: { type: "string", description: "A title.", pattern: "^[A-Z]" },
        when: { type: ["string", "null"], format: "date-time" },
        size: { anyOf: [{ type: "integer", minimum: 1, maximum: 9 }, { type: "null" }] },
        tree: { $ref: "#/$defs/Node" },
        mode: { enum: ["a", "b", null] },
        kind: { const: "report" },
        tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
        self: { anyOf: [{ $ref: "#" }, { type: "null" }] },
      },
      { $defs: { Node: closed({ name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }) } },
    );

    expect(openaiStrictViolations(schema)).toEqual([]);
  });

  it("names each object that is open or leaves a key out of required, with its JSON path", () => {
    const schema = { type: "object", properties: { owner: { type: "object", properties: { name: { type: "string" }, email: { type: "string" } }, required: ["name"], additionalProperties: false } }, required: ["owner"] };

    expect(openaiStrictViolations(schema)).toEqual([
      { path: "$", segments: [], message: "'additionalProperties' is required to be supplied and to be false" },
      { path: "$.properties.owner", segments: ["properties", "owner"], message: "'required' is required to be supplied and to be an array including every key in properties. Missing 'email'" },
    ]);
  });

  it("refuses keywords strict mode does not support, boolean schemas and open maps", () => {
    const schema = closed({
      a: { type: "string", minLength: 1 },
      b: { oneOf: [{ type: "string" }, { type: "number" }] },
      c: { type: "array", prefixItems: [{ type: "string" }], items: false },
      d: { type: "object", properties: {}, required: [], additionalProperties: { type: "string" } },
      e: { type: "string", format: "uri" },
    });

    expect(openaiStrictViolations(schema).map((v) => `${v.path}: ${v.message}`)).toEqual([
      "$.properties.a: 'minLength' is not permitted",
      "$.properties.b: 'oneOf' is not permitted",
      "$.properties.b: schema must have a 'type' key",
      "$.properties.c: 'prefixItems' is not permitted",
      "$.properties.c.items: boolean schemas are not supported, got false",
      "$.properties.d: 'additionalProperties' is required to be supplied and to be false",
      "$.properties.e: format 'uri' is not supported",
    ]);
  });

  it("refuses an untyped node, an untyped array item and a $ref with keywords beside it", () => {
    const schema = closed({ any: {}, list: { type: "array", items: {} }, node: { $ref: "#/$defs/Node", description: "A node." } }, { $defs: { Node: closed({}) } });

    expect(openaiStrictViolations(schema).map((v) => `${v.path}: ${v.message}`)).toEqual([
      "$.properties.any: schema must have a 'type' key",
      "$.properties.list.items: schema must have a 'type' key",
      "$.properties.node: $ref cannot have keywords {'description'}",
    ]);
  });

  it("refuses a root that is not an object and a $ref that points nowhere", () => {
    expect(openaiStrictViolations({ anyOf: [closed({}), { type: "null" }] }).map((v) => `${v.path}: ${v.message}`)).toEqual(['$: the root must be type "object" (not anyOf), got "anyOf"']);
    expect(openaiStrictViolations(closed({ a: { $ref: "#/$defs/Missing" } })).map((v) => v.message)).toEqual(["$ref '#/$defs/Missing' does not point to a definition in this schema"]);
  });

  it("refuses more than 10 levels of object nesting", () => {
    let schema: Record<string, unknown> = closed({ leaf: { type: "string" } });
    for (let level = 0; level < 10; level++) schema = closed({ inner: schema });

    expect(openaiStrictViolations(schema).map((v) => `${v.path}: ${v.message}`)).toEqual([`$${".properties.inner".repeat(10)}: objects are nested 11 levels deep, more than 10`]);
  });

  it("refuses more than 5000 properties and more than 1000 enum values in total", () => {
    const wide = closed(Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: "boolean" }])));
    const enums = closed(Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`e${i}`, { type: "integer", enum: Array.from({ length: 334 }, (_, n) => n) }])));

    expect(openaiStrictViolations(wide).map((v) => v.message)).toEqual(["the schema has 5001 object properties in total, more than 5000"]);
    expect(openaiStrictViolations(enums).map((v) => v.message)).toEqual(["the schema has 1002 enum values in total, more than 1000"]);
  });

  it("refuses an enum of more than 250 values whose strings pass 15000 characters", () => {
    const schema = closed({ code: { type: "string", enum: Array.from({ length: 300 }, (_, i) => `${String(i).padStart(3, "0")}${"x".repeat(60)}`) } });

    expect(openaiStrictViolations(schema).map((v) => v.message)).toEqual(["an enum of 300 values has 18900 characters of strings, more than 15000"]);
  });
});

describe("openaiStrictErrorMessage", () => {
  it("words the first violation as OpenAI's 400 answer does", () => {
    const violations = openaiStrictViolations({ type: "object", properties: { units: { type: "string" } }, required: [], additionalProperties: false });

    expect(openaiStrictErrorMessage("function 'get_weather'", violations)).toBe(
      "Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'units'.",
    );
    expect(openaiStrictErrorMessage("response_format 'x'", [{ path: "$.properties", segments: ["properties"], message: "m" }])).toBe("Invalid schema for response_format 'x': In context=('properties',), m.");
  });
});
