import { z } from "zod";
import { ConfigurationError, Tool } from "../../src";
import { compileJsonSchema } from "../../src/tools/argumentValidator";
import type { JsonSchema } from "../../src/tools/jsonSchema";
import { findUnsupportedPattern, linearPatternProblem, linearRegExp, schemaPatterns, UnsupportedPatternError } from "../../src/tools/linearPattern";
import { generatedSchema, toolInternals } from "../../src/tools/tool";

const schema = (value: unknown) => value as JsonSchema;

describe("schemaPatterns", () => {
  it("finds every pattern and patternProperties name at its schema path", () => {
    const found = schemaPatterns({
      type: "object",
      properties: { id: { type: "string", pattern: "^a" }, list: { type: "array", items: { pattern: "^b" }, prefixItems: [{ pattern: "^c" }] } },
      patternProperties: { "^x-": { pattern: "^d" } },
      $defs: { code: { anyOf: [{ pattern: "^e" }] } },
      propertyNames: { pattern: "^f" },
    });

    expect(found).toEqual([
      { path: ["patternProperties", "^x-"], pattern: "^x-" },
      { path: ["properties", "id", "pattern"], pattern: "^a" },
      { path: ["properties", "list", "items", "pattern"], pattern: "^b" },
      { path: ["properties", "list", "prefixItems", 0, "pattern"], pattern: "^c" },
      { path: ["patternProperties", "^x-", "pattern"], pattern: "^d" },
      { path: ["$defs", "code", "anyOf", 0, "pattern"], pattern: "^e" },
      { path: ["propertyNames", "pattern"], pattern: "^f" },
    ]);
  });

  it("skips values that are data, not schemas", () => {
    expect(schemaPatterns({ type: "object", default: { pattern: "(?=x)" }, enum: [{ pattern: "a" }], examples: [{ pattern: "b" }], properties: { pattern: { type: "string" } } })).toEqual([]);
  });

  it("walks a schema nested 10,000 levels deep without overflowing the stack", () => {
    let deep: Record<string, unknown> = { type: "string", pattern: "^z" };
    for (let i = 0; i < 10_000; i++) deep = { type: "array", items: deep };

    expect(schemaPatterns(deep)).toHaveLength(1);
  });
});

describe("linearPatternProblem", () => {
  it.each([
    ["^(a+)+$"],
    ["\\d{3}-\\w+"],
    ["^\\p{L}+$"],
    ["(?<year>\\d{4})"],
    ["\\u00e9"],
    ["[(?=x)]"],
    ["\\(?=x"],
  ])("accepts %s", (pattern) => {
    expect(linearPatternProblem(pattern)).toBeUndefined();
  });

  it.each([
    ["(?=a)", "RE2 has no lookahead or lookbehind"],
    ["(?!a)", "RE2 has no lookahead or lookbehind"],
    ["(?<=a)b", "RE2 has no lookahead or lookbehind"],
    ["(?<!a)b", "RE2 has no lookahead or lookbehind"],
    ["(a)\\1", "RE2 has no backreferences"],
    ["(?<q>a)\\k<q>", "RE2 has no backreferences"],
    ["[\\b]", "RE2 refuses it: error parsing regexp: invalid escape sequence: `\\b`"],
  ])("refuses %s: %s", (pattern, problem) => {
    expect(linearPatternProblem(pattern)).toBe(problem);
  });
});

describe("linearRegExp", () => {
  it("finds a pattern anywhere in the string, as a JSON Schema pattern does", () => {
    expect(linearRegExp("b+", "u").test("abbbc")).toBe(true);
    expect(linearRegExp("^b+$", "u").test("abbbc")).toBe(false);
  });

  it("answers a catastrophic pattern on a 100,000-character input", () => {
    expect(linearRegExp("^(a+)+$", "u").test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(linearRegExp("^(a+)+$", "u").test("a".repeat(100_000))).toBe(true);
  });
});

describe("findUnsupportedPattern", () => {
  it("names the first pattern RE2 cannot run, with its JSON Pointer", () => {
    const error = findUnsupportedPattern(schema({ type: "object", properties: { "a/b": { type: "string", pattern: "^ok$" }, c: { type: "string", pattern: "(x)\\1" } } }));

    expect(error).toBeInstanceOf(UnsupportedPatternError);
    expect(error!.schemaPath).toEqual(["properties", "c", "pattern"]);
    expect(error!.message).toBe('pattern "(x)\\\\1" at #/properties/c/pattern cannot be matched in linear time (RE2 has no backreferences)');
  });
});

describe("compileJsonSchema patterns", () => {
  it("matches a user schema's patterns with RE2, each pattern on its own", () => {
    const validate = compileJsonSchema(schema({ type: "object", properties: { a: { type: "string", pattern: "^a+$" }, b: { type: "string", pattern: "^b+$" } } }), "user");

    expect(validate({ a: "aa", b: "bb" })).toBe(true);
    expect(validate({ a: "bb" })).toBe(false);
    expect(validate({ a: `${"a".repeat(50_000)}!` })).toBe(false);
  });

  it("throws UnsupportedPatternError for a user schema with a lookahead", () => {
    expect(() => compileJsonSchema(schema({ type: "string", pattern: "^(?!admin)" }), "user")).toThrow(UnsupportedPatternError);
  });

  it("keeps RegExp for codegen's schemas and zod's JSON forms, which are code", () => {
    const lookahead = schema({ type: "string", pattern: "^(?!admin)" });

    expect(compileJsonSchema(lookahead, "generated")("root")).toBe(true);
    expect(compileJsonSchema(lookahead, "code")("admin")).toBe(false);
  });
});

describe("Tool parameters with patterns", () => {
  it("refuses a JSON Schema with a pattern RE2 cannot run at the first call, naming the tool and the pattern", () => {
    const tool = new Tool({ name: "pick", description: "Pick.", parameters: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin)" } } }, function: () => 1 });

    const thrown = (() => {
      try {
        toolInternals(tool).validator.validate({});
      } catch (error) {
        return error;
      }
      return undefined;
    })();

    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as Error).message).toBe(
      `Tool 'pick' has parameters whose pattern "^(?!admin)" at #/properties/user/pattern cannot be matched in linear time (RE2 has no lookahead or lookbehind): the patterns of a JSON Schema run on RE2 so that no input can stall the process; rewrite the pattern without lookaround or backreferences, or pass a zod object.`,
    );
  });

  it("keeps a zod tool's regex, lookahead included, on RegExp", () => {
    const tool = new Tool({ name: "pick", description: "Pick.", parameters: z.object({ user: z.string().regex(/^(?!admin)/), mail: z.email() }), function: () => 1 });

    expect(toolInternals(tool).validator.validate({ user: "root", mail: "a@b.co" })).toEqual({ ok: true, value: { user: "root", mail: "a@b.co" } });
    expect(toolInternals(tool).validator.validate({ user: "admin", mail: "a@b.co" }).ok).toBe(false);
  });

  it("keeps a generated schema's pattern on RegExp", () => {
    const tool = new Tool({ name: "pick", description: "Pick.", parameters: { type: "object", properties: { user: { type: "string", pattern: "^(?!admin)" } } }, function: () => 1, [generatedSchema]: true } as ConstructorParameters<typeof Tool>[0]);

    expect(toolInternals(tool).validator.validate({ user: "admin" }).ok).toBe(false);
    expect(toolInternals(tool).validator.validate({ user: "root" }).ok).toBe(true);
  });
});
