import { jsonSchemaToTypeScript, type TypeWriting } from "../../src/haystack/jsonSchemaToTypeScript";

const write = (schema: unknown) => {
  const out: TypeWriting = { usesInteger: false, unknownAt: [] };
  return { type: jsonSchemaToTypeScript(schema, out, "p"), ...out };
};

describe("jsonSchemaToTypeScript", () => {
  it("writes primitives, integer as Integer, and null as a union member", () => {
    expect(write({ type: "string" }).type).toBe("string");
    expect(write({ type: "number" }).type).toBe("number");
    expect(write({ type: "boolean" }).type).toBe("boolean");
    expect(write({ type: "integer" })).toEqual({ type: "Integer", usesInteger: true, unknownAt: [] });
    expect(write({ type: ["string", "null"] }).type).toBe("string | null");
  });

  it("writes enums and consts as unions of literals", () => {
    expect(write({ type: "string", enum: ["celsius", "fahrenheit"] }).type).toBe('"celsius" | "fahrenheit"');
    expect(write({ enum: [1, 2, true] }).type).toBe("1 | 2 | true");
    expect(write({ const: "x" }).type).toBe('"x"');
  });

  it("writes arrays, objects with optional members and descriptions, and maps", () => {
    expect(write({ type: "array", items: { type: "string" } }).type).toBe("string[]");
    expect(write({ type: "array", items: { type: "string", enum: ["a", "b"] } }).type).toBe('Array<"a" | "b">');
    expect(write({ type: "object", properties: { id: { type: "string", description: "The id." }, "x-y": { type: "number" } }, required: ["id"] }).type).toBe('{ /** The id. */ id: string; "x-y"?: number }');
    expect(write({ type: "object", additionalProperties: { type: "integer" } }).type).toBe("{ [key: string]: Integer }");
    expect(write({ type: "object" }).type).toBe("Record<string, unknown>");
    expect(write({ anyOf: [{ type: "string" }, { type: "array", items: { type: "number" } }] }).type).toBe("string | number[]");
  });

  it("writes unknown, with its path, for a schema with no TypeScript form here", () => {
    expect(write({ type: "object", properties: { any: {}, ref: { $ref: "#/$defs/x" } } })).toEqual({ type: "{ any?: unknown; ref?: unknown }", usesInteger: false, unknownAt: ["p.any", "p.ref"] });
  });
});
