import { z } from "zod";
import { type ArgumentValidator, compileJsonSchema, jsonSchemaValidator, zodArgumentValidator } from "../../src/tools/argumentValidator";
import type { JsonSchema } from "../../src/tools/jsonSchema";

const searchSchema: JsonSchema = {
  type: "object",
  properties: {
    query: { type: "string" },
    limit: { type: "integer", minimum: 1 },
    sort: { type: "string", enum: ["newest", "oldest"] },
    tag: { type: ["string", "null"] },
    filter: {
      anyOf: [
        {
          type: "object",
          properties: {
            range: { type: "object", properties: { from: { type: "string" }, to: { type: "string" } }, required: ["from"], additionalProperties: false },
            status: { type: "string" },
          },
          additionalProperties: false,
        },
        { type: "null" },
      ],
    },
    items: {
      type: "array",
      items: { type: "object", properties: { name: { type: "string" }, note: { type: "string" } }, required: ["name"], additionalProperties: false },
    },
  },
  required: ["query"],
  additionalProperties: false,
};

function problems(validator: ArgumentValidator, args: Record<string, unknown>) {
  const outcome = validator.validate(args);
  if (outcome.ok) throw new Error(`expected problems, got ${JSON.stringify(outcome.value)}`);
  return outcome.problems;
}

function accepted(validator: ArgumentValidator, args: Record<string, unknown>) {
  const outcome = validator.validate(args);
  if (!outcome.ok) throw new Error(`expected no problems, got ${JSON.stringify(outcome.problems)}`);
  return outcome.value;
}

describe("jsonSchemaValidator", () => {
  const validator = jsonSchemaValidator(searchSchema, "Tool 'search'");

  it("accepts valid arguments unchanged", () => {
    const args = { query: "refund", limit: 3, sort: "newest", filter: { range: { from: "2024-01-01" } }, items: [{ name: "a" }] };

    expect(accepted(validator, args)).toEqual(args);
  });

  it("reports a missing required property", () => {
    expect(problems(validator, {})).toEqual([{ path: "query", message: "is required" }]);
  });

  it("reports a wrong type with the value it got", () => {
    expect(problems(validator, { query: "x", limit: "5" })).toEqual([{ path: "limit", message: 'must be integer (got string "5")' }]);
  });

  it("reports an unknown property with the parameters there are", () => {
    expect(problems(validator, { query: "x", userId: "u-1" })).toEqual([
      { path: "userId", message: "is not a parameter of this tool (parameters: query, limit, sort, tag, filter, items)" },
    ]);
  });

  it("reports an enum mismatch with the allowed values", () => {
    expect(problems(validator, { query: "x", sort: "best" })).toEqual([{ path: "sort", message: 'must be one of "newest", "oldest" (got string "best")' }]);
  });

  it("reports a constraint keyword with ajv's wording", () => {
    expect(problems(validator, { query: "x", limit: 0 })).toEqual([{ path: "limit", message: "must be >= 1 (got number 0)" }]);
  });

  it("reports a type union", () => {
    expect(problems(validator, { query: "x", tag: 5 })).toEqual([{ path: "tag", message: "must be string or null (got number 5)" }]);
  });

  it("names nested object paths", () => {
    expect(problems(validator, { query: "x", filter: { range: { from: 1 } } })).toEqual([{ path: "filter.range.from", message: "must be string (got number 1)" }]);
    expect(problems(validator, { query: "x", filter: { range: {} } })).toEqual([{ path: "filter.range.from", message: "is required" }]);
  });

  it("names array item paths", () => {
    expect(problems(validator, { query: "x", items: [{ name: "a" }, { name: 3 }] })).toEqual([{ path: "items[1].name", message: "must be string (got number 3)" }]);
  });

  it("reports an unknown nested property with the properties allowed there", () => {
    expect(problems(validator, { query: "x", filter: { range: { from: "a", until: "b" } } })).toEqual([
      { path: "filter.range.until", message: "is not an allowed property (allowed: from, to)" },
    ]);
  });

  it("reports every problem, not only the first", () => {
    expect(problems(validator, { query: 1, limit: 1.5, extra: true })).toEqual([
      { path: "extra", message: "is not a parameter of this tool (parameters: query, limit, sort, tag, filter, items)" },
      { path: "query", message: "must be string (got number 1)" },
      { path: "limit", message: "must be integer (got number 1.5)" },
    ]);
  });

  it("reports the problems of the object branch of a T | null union, not the null branch", () => {
    expect(problems(validator, { query: "x", filter: { status: 2 } })).toEqual([{ path: "filter.status", message: "must be string (got number 2)" }]);
  });

  it("reports the types of a union when no branch has the value's type", () => {
    expect(problems(validator, { query: "x", filter: 5 })).toEqual([{ path: "filter", message: "must be object or null (got number 5)" }]);
  });

  it("reports the closest branch of a union of object types", () => {
    const shapes = jsonSchemaValidator({
      type: "object",
      properties: {
        shape: {
          anyOf: [
            { type: "object", properties: { kind: { const: "circle" }, radius: { type: "number" } }, required: ["kind", "radius"], additionalProperties: false },
            { type: "object", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind", "side"], additionalProperties: false },
          ],
        },
      },
      required: ["shape"],
      additionalProperties: false,
    }, "Tool 'shapes'");

    expect(problems(shapes, { shape: { kind: "square", side: "4" } })).toEqual([{ path: "shape.side", message: 'must be number (got string "4")' }]);
    expect(problems(shapes, { shape: { kind: "circle" } })).toEqual([{ path: "shape.radius", message: "is required" }]);
  });

  it("drops null for optional properties at the top level and nested, so they are absent", () => {
    const value = accepted(validator, { query: "x", limit: null, sort: null, filter: { range: { from: "a", to: null } }, items: [{ name: "a", note: null }] });

    expect(value).toEqual({ query: "x", filter: { range: { from: "a" } }, items: [{ name: "a" }] });
    expect("limit" in value).toBe(false);
  });

  it("keeps null where the property accepts null", () => {
    expect(accepted(validator, { query: "x", tag: null, filter: null })).toEqual({ query: "x", tag: null, filter: null });
  });

  it("refuses null for a required property that does not accept null", () => {
    expect(problems(validator, { query: null })).toEqual([{ path: "query", message: "must be string (got null)" }]);
    expect(problems(validator, { query: "x", items: [{ name: null }] })).toEqual([{ path: "items[0].name", message: "must be string (got null)" }]);
    expect(problems(validator, { query: "x", filter: { range: { from: null } } })).toEqual([{ path: "filter.range.from", message: "must be string (got null)" }]);
  });

  it("does not change the arguments it was given", () => {
    const args = { query: "x", limit: null };
    accepted(validator, args);

    expect(args).toEqual({ query: "x", limit: null });
  });
});

describe("compileJsonSchema", () => {
  it("compiles equal schemas once: tools with the same parameters share one validator", () => {
    const schema = () => ({ type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false });

    expect(compileJsonSchema(schema())).toBe(compileJsonSchema(schema()));
    expect(compileJsonSchema(schema())).not.toBe(compileJsonSchema({ ...schema(), required: ["b", "a"] }));
  });

  it("checks a user schema against the meta-schema, and compiles a generated one as it is", () => {
    const invalid = { type: "object", properties: { limit: { type: "int" } } };

    expect(() => compileJsonSchema(invalid)).toThrow("schema is invalid: data/properties/limit/type must be equal to one of the allowed values");
    expect(() => compileJsonSchema({ type: "object", properties: { limit: { type: "integer" } } }, "generated")).not.toThrow();
  });
});

describe("zodArgumentValidator", () => {
  const schema = z
    .object({
      query: z.string(),
      limit: z.number().int().min(1).default(5),
      sort: z.enum(["newest", "oldest"]).optional(),
      filter: z.object({ range: z.object({ from: z.string(), to: z.string().optional() }), status: z.string().optional() }).nullable().optional(),
      items: z.array(z.object({ name: z.string(), note: z.string().optional() })).optional(),
      code: z.string().refine((s) => s === s.toUpperCase(), "must be upper case").optional(),
    })
    .strict();
  const jsonForm = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" }) as JsonSchema;
  const validator = zodArgumentValidator(schema, jsonForm);

  it("returns zod's output, defaults applied", () => {
    expect(accepted(validator, { query: "x" })).toEqual({ query: "x", limit: 5 });
  });

  it("reports problems in the same words as a JSON Schema tool", () => {
    expect(problems(validator, {})).toEqual([{ path: "query", message: "is required" }]);
    expect(problems(validator, { query: "x", limit: "5" })).toEqual([{ path: "limit", message: 'must be integer (got string "5")' }]);
    expect(problems(validator, { query: "x", sort: "best" })).toEqual([{ path: "sort", message: 'must be one of "newest", "oldest" (got string "best")' }]);
    expect(problems(validator, { query: "x", filter: { range: { from: 1 } } })).toEqual([{ path: "filter.range.from", message: "must be string (got number 1)" }]);
    expect(problems(validator, { query: "x", items: [{ name: "a" }, { name: 3 }] })).toEqual([{ path: "items[1].name", message: "must be string (got number 3)" }]);
  });

  it("reports every unknown property", () => {
    expect(problems(validator, { query: "x", userId: "u", other: 1 })).toEqual([
      { path: "userId", message: "is not a parameter of this tool (parameters: query, limit, sort, filter, items, code)" },
      { path: "other", message: "is not a parameter of this tool (parameters: query, limit, sort, filter, items, code)" },
    ]);
  });

  it("reports a refinement the JSON form cannot express with zod's message", () => {
    expect(problems(validator, { query: "x", code: "abc" })).toEqual([{ path: "code", message: "must be upper case" }]);
  });

  it("drops null for optional properties, top level and nested, so defaults apply", () => {
    expect(accepted(validator, { query: "x", limit: null, sort: null, filter: { range: { from: "a", to: null } } })).toEqual({
      query: "x",
      limit: 5,
      filter: { range: { from: "a" } },
    });
  });

  it("keeps null for a nullable property", () => {
    expect(accepted(validator, { query: "x", filter: null })).toEqual({ query: "x", limit: 5, filter: null });
  });

  it("refuses null for a required property", () => {
    expect(problems(validator, { query: null })).toEqual([{ path: "query", message: "must be string (got null)" }]);
  });

  it("checks with zod alone when ajv cannot compile the JSON form, still reporting every unknown property", () => {
    const strict = z.object({ query: z.string() }).strict();
    const uncompilable: JsonSchema = { type: "object", properties: { query: { type: "string", pattern: "[" } }, required: ["query"], additionalProperties: false };
    const fallback = zodArgumentValidator(strict, uncompilable);

    expect(problems(fallback, { query: "x", a: 1, b: 2 })).toEqual([
      { path: "a", message: "is not a parameter of this tool (parameters: query)" },
      { path: "b", message: "is not a parameter of this tool (parameters: query)" },
    ]);
    expect(accepted(fallback, { query: "[" })).toEqual({ query: "[" });
  });
});
