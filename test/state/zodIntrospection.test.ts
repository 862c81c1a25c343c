import { z } from "zod";
import { ConfigurationError, State, Tool } from "toolwright";
import { isZodSchema, zodVersionProblem } from "../../src/state/zodIntrospection";

describe("zodVersionProblem", () => {
  it("names a zod 3 schema and the zod version toolwright needs", () => {
    const zod3String = { _def: { typeName: "ZodString", checks: [] }, safeParse: () => ({ success: true }) };
    expect(isZodSchema(zod3String)).toBe(false);
    expect(zodVersionProblem(zod3String)).toBe("this is a zod 3 schema (ZodString); toolwright needs zod 4 (npm i zod@^4)");
  });

  it("recognises a zod 3 schema whose definition has no type name", () => {
    expect(zodVersionProblem({ _def: {} })).toBe("this is a zod 3 schema; toolwright needs zod 4 (npm i zod@^4)");
  });

  it("finds no problem with zod 4 schemas", () => {
    for (const schema of [z.string(), z.object({ id: z.string() }), z.array(z.number()).optional()]) {
      expect(isZodSchema(schema)).toBe(true);
      expect(zodVersionProblem(schema)).toBeUndefined();
    }
  });

  it("finds no problem with values that are no zod schema at all", () => {
    for (const value of [undefined, null, "string", 42, {}, [], { _def: "text" }, { type: "object" }, () => undefined]) {
      expect(zodVersionProblem(value)).toBeUndefined();
    }
  });
});

describe("zod 3 schemas where zod 4 is expected", () => {
  const zod3String = { _def: { typeName: "ZodString" }, parse: () => "x" };

  it("say that zod 4 is needed in a state schema", () => {
    expect(() => new State({ name: { type: zod3String as never } })).toThrow(
      new ConfigurationError("stateSchema.name", "State key 'name' has a type toolwright cannot read: this is a zod 3 schema (ZodString); toolwright needs zod 4 (npm i zod@^4)."),
    );
  });

  it("say that zod 4 is needed in a Tool's parameters", () => {
    const zod3Object = { _def: { typeName: "ZodObject" }, type: "object" };

    expect(() => new Tool({ name: "t", description: "x", parameters: zod3Object as never, function: () => "ok" })).toThrow(
      new ConfigurationError("Tool 't'", "Tool 't' has parameters toolwright cannot read: this is a zod 3 schema (ZodObject); toolwright needs zod 4 (npm i zod@^4)."),
    );
  });
});
