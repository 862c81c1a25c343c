import { toolInternals } from "../../src/tools/tool";
import { ConfigurationError, Tool, type ToolOptions, Toolset } from "toolwright";
import { z } from "zod";
import { strictCompatibility } from "../../src/tools/strictCompatibility";

const run = () => "ok";
const queryParameters = { type: "object", properties: { query: { type: "string" } }, required: ["query"] };

function options(overrides: Record<string, unknown> = {}): ToolOptions {
  return { name: "search", description: "Search documents.", parameters: queryParameters, function: run, ...overrides } as ToolOptions;
}

function configurationError(build: () => unknown): ConfigurationError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError, but nothing was thrown");
}

function expectConfigurationError(build: () => unknown, subject: string, message: string): void {
  const error = configurationError(build);
  expect(error.message).toBe(message);
  expect(error.subject).toBe(subject);
  expect(error.name).toBe("ConfigurationError");
}

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema }, required: ["a"], additionalProperties: false };
  return schema;
}

describe("Tool", () => {
  describe("with JSON Schema parameters", () => {
    it("keeps the name, description and options it was given", () => {
      const tool = new Tool(options({ outputsToState: { documents: { source: "documents" } }, outputsToString: { source: "summary" }, source: "src/tools.ts:3:1" }));

      expect(tool.name).toBe("search");
      expect(tool.description).toBe("Search documents.");
      expect(tool.outputsToState).toEqual({ documents: { source: "documents" } });
      expect(tool.outputsToString).toEqual({ source: "summary" });
      expect(tool.usesState).toBe(false);
      expect(tool.source).toBe("src/tools.ts:3:1");
      expect(Object.isFrozen(tool)).toBe(true);
    });

    it("adds additionalProperties: false to the schema the model sees", () => {
      const tool = new Tool(options());

      expect(tool.parameters).toEqual({ type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false });
    });

    it("drops the parameters inputsFromState fills from properties and required", () => {
      const tool = new Tool(
        options({
          parameters: {
            type: "object",
            properties: { query: { type: "string" }, userId: { type: "string" }, tenant: { type: "string" }, limit: { type: "integer" } },
            required: ["query", "userId", "tenant"],
          },
          inputsFromState: { user_id: "userId", tenant: "tenant" },
        }),
      );

      expect(tool.parameters).toEqual({
        type: "object",
        properties: { query: { type: "string" }, limit: { type: "integer" } },
        required: ["query"],
        additionalProperties: false,
      });
      expect(tool.inputsFromState).toEqual({ user_id: "userId", tenant: "tenant" });
    });

    it("does not change the schema object it was given", () => {
      const parameters = { type: "object", properties: { query: { type: "string" }, userId: { type: "string" } }, required: ["query", "userId"] };

      new Tool(options({ parameters, inputsFromState: { user_id: "userId" } }));

      expect(parameters).toEqual({ type: "object", properties: { query: { type: "string" }, userId: { type: "string" } }, required: ["query", "userId"] });
    });

    it("records usesState", () => {
      expect(new Tool(options({ usesState: true })).usesState).toBe(true);
    });
  });

  describe("with zod parameters", () => {
    it("turns the zod object into a closed JSON Schema", () => {
      const tool = new Tool(options({ parameters: z.object({ query: z.string().describe("Words to look for."), limit: z.number().int().default(5) }) }));

      expect(tool.parameters).toEqual({
        type: "object",
        properties: {
          query: { type: "string", description: "Words to look for." },
          limit: { type: "integer", default: 5, minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        },
        required: ["query"],
        additionalProperties: false,
      });
    });

    it("drops the parameters inputsFromState fills", () => {
      const tool = new Tool(options({ parameters: z.object({ query: z.string(), userId: z.string() }), inputsFromState: { user_id: "userId" } }));

      expect(tool.parameters).toEqual({ type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false });
    });
  });

  describe("configuration errors", () => {
    it("rejects a name longer than 64 characters", () => {
      const name = "a".repeat(65);
      expectConfigurationError(
        () => new Tool(options({ name })),
        `Tool '${name}'`,
        `Tool '${name}' has an invalid name: '${name}' is not a valid tool name: use 1-64 characters of letters, digits, '_' and '-'.`,
      );
    });

    it("accepts a name of exactly 64 characters", () => {
      expect(new Tool(options({ name: "a".repeat(64) })).name).toBe("a".repeat(64));
    });

    it("rejects a name with a space", () => {
      expectConfigurationError(
        () => new Tool(options({ name: "bad name" })),
        "Tool 'bad name'",
        "Tool 'bad name' has an invalid name: 'bad name' is not a valid tool name: use 1-64 characters of letters, digits, '_' and '-'.",
      );
    });

    it("rejects an empty name", () => {
      expectConfigurationError(
        () => new Tool(options({ name: "" })),
        "Tool ''",
        "Tool '' has an invalid name: '' is not a valid tool name: use 1-64 characters of letters, digits, '_' and '-'.",
      );
    });

    it("rejects a name that is not a string", () => {
      expectConfigurationError(() => new Tool(options({ name: 5 })), "Tool", "Tool has an invalid name: the name must be a string, got number 5.");
    });

    it("rejects missing options", () => {
      expectConfigurationError(() => new Tool(undefined as unknown as ToolOptions), "Tool", "new Tool(options) needs an options object, got undefined.");
    });

    it("rejects a missing description", () => {
      expectConfigurationError(() => new Tool(options({ description: undefined })), "Tool 'search'", "Tool 'search' needs a description string for the model, got undefined.");
    });

    it("rejects a missing function", () => {
      expectConfigurationError(() => new Tool(options({ function: undefined })), "Tool 'search'", "Tool 'search' needs a function to run, got undefined.");
    });

    it("rejects parameters that are not an object", () => {
      expectConfigurationError(
        () => new Tool(options({ parameters: "query: string" })),
        "Tool 'search'",
        'Tool \'search\' needs parameters: a JSON Schema object or a zod object, got string "query: string".',
      );
      expectConfigurationError(
        () => new Tool(options({ parameters: [] })),
        "Tool 'search'",
        "Tool 'search' needs parameters: a JSON Schema object or a zod object, got an array.",
      );
      expectConfigurationError(
        () => new Tool(options({ parameters: undefined })),
        "Tool 'search'",
        "Tool 'search' needs parameters: a JSON Schema object or a zod object, got undefined.",
      );
    });

    it("rejects parameters whose type is not object", () => {
      expectConfigurationError(
        () => new Tool(options({ parameters: { type: "array", items: { type: "string" } } })),
        "Tool 'search'",
        'Tool \'search\' has parameters whose type is not "object": tool arguments are always an object; wrap them as { type: "object", properties: {...} }.',
      );
    });

    it("rejects an invalid JSON Schema on the tool's first call (schemas compile on first use), keeping ajv's error as cause", () => {
      const tool = new Tool(options({ parameters: { type: "object", properties: { limit: { type: "int" } } } }));
      const error = configurationError(() => toolInternals(tool).validator.validate({ limit: 1 }));

      expect(error.message).toBe(
        "Tool 'search' has parameters that are not a valid JSON Schema: schema is invalid: data/properties/limit/type must be equal to one of the allowed values, data/properties/limit/type must be array, data/properties/limit/type must match a schema in anyOf. Fix the schema, or pass a zod object.",
      );
      expect(error.cause).toBeInstanceOf(Error);
    });

    it("rejects zod parameters that are not an object", () => {
      expectConfigurationError(() => new Tool(options({ parameters: z.string() })), "Tool 'search'", "Tool 'search' has zod parameters that are not an object: pass z.object({...}).");
    });

    it("rejects inputsFromState naming a parameter the JSON Schema does not have", () => {
      expectConfigurationError(
        () => new Tool(options({ inputsFromState: { user_id: "userID" } })),
        "Tool 'search'",
        "Tool 'search' fills 'userID' from state, but 'userID' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: query.",
      );
    });

    it("rejects inputsFromState on a schema without properties", () => {
      expectConfigurationError(
        () => new Tool(options({ parameters: { type: "object" }, inputsFromState: { user_id: "userId" } })),
        "Tool 'search'",
        "Tool 'search' fills 'userId' from state, but 'userId' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: none.",
      );
    });

    it("rejects inputsFromState naming a parameter the zod object does not have", () => {
      expectConfigurationError(
        () => new Tool(options({ parameters: z.object({ query: z.string(), limit: z.number() }), inputsFromState: { user_id: "userId" } })),
        "Tool 'search'",
        "Tool 'search' fills 'userId' from state, but 'userId' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: query, limit.",
      );
    });

    it("rejects inputsFromState that is not an object", () => {
      expectConfigurationError(
        () => new Tool(options({ inputsFromState: ["userId"] })),
        "Tool 'search'",
        "Tool 'search' has inputsFromState that is not an object of { stateKey: parameterName }, got an array.",
      );
    });

    it("rejects an inputsFromState value that is not a string", () => {
      expectConfigurationError(
        () => new Tool(options({ inputsFromState: { user_id: true } })),
        "Tool 'search'",
        "Tool 'search' maps state key 'user_id' in inputsFromState to boolean true; the value must be the name of the parameter it fills.",
      );
    });

    it("rejects outputsToState that is not an object", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToState: "documents" })),
        "Tool 'search'",
        'Tool \'search\' has outputsToState that is not an object of { stateKey: { source?, handler? } }, got string "documents".',
      );
    });

    it("rejects an outputsToState entry that is not an object", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToState: { documents: "documents" } })),
        "Tool 'search'",
        'Tool \'search\' has outputsToState.documents that is not { source?, handler? }, got string "documents".',
      );
    });

    it("rejects an outputsToState source that is not a string", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToState: { documents: { source: 1 } } })),
        "Tool 'search'",
        "Tool 'search' has outputsToState.documents.source that is not a string, got number 1.",
      );
    });

    it("rejects an outputsToState handler that is not a function", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToState: { documents: { handler: "append" } } })),
        "Tool 'search'",
        'Tool \'search\' has outputsToState.documents.handler that is not a function, got string "append".',
      );
    });

    it("rejects an unknown outputsToState option", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToState: { documents: { sourc: "documents" } } })),
        "Tool 'search'",
        "Tool 'search' has outputsToState.documents with unknown option 'sourc'; the options are source and handler.",
      );
    });

    it("rejects outputsToString that is not an object", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToString: "summary" })),
        "Tool 'search'",
        'Tool \'search\' has outputsToString that is not { source?, handler?, rawResult? }, got string "summary".',
      );
    });

    it("rejects an unknown outputsToString option", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToString: { sourc: "summary" } })),
        "Tool 'search'",
        "Tool 'search' has outputsToString with unknown option 'sourc'; the options are source, handler and rawResult.",
      );
    });

    it("rejects ill-typed outputsToString options", () => {
      expectConfigurationError(
        () => new Tool(options({ outputsToString: { source: 1 } })),
        "Tool 'search'",
        "Tool 'search' has outputsToString.source that is not a string, got number 1.",
      );
      expectConfigurationError(
        () => new Tool(options({ outputsToString: { handler: "String" } })),
        "Tool 'search'",
        'Tool \'search\' has outputsToString.handler that is not a function, got string "String".',
      );
      expectConfigurationError(
        () => new Tool(options({ outputsToString: { rawResult: "yes" } })),
        "Tool 'search'",
        'Tool \'search\' has outputsToString.rawResult that is not a boolean, got string "yes".',
      );
    });
  });

  describe("strictCompatibility", () => {
    it("is compatible for closed objects, arrays, enums and nullable branches", () => {
      const tool = new Tool(
        options({
          parameters: {
            type: "object",
            properties: {
              query: { type: "string", minLength: 1 },
              tags: { type: "array", items: { type: "string", enum: ["a", "b"] } },
              filter: { anyOf: [{ type: "object", properties: { from: { type: "string" } }, required: ["from"], additionalProperties: false }, { type: "null" }] },
            },
            required: ["query"],
          },
        }),
      );

      expect(tool.strictCompatibility).toEqual({ compatible: true });
    });

    it("is compatible for a zod object", () => {
      expect(new Tool(options({ parameters: z.object({ query: z.string(), when: z.enum(["today", "week"]).optional() }) })).strictCompatibility).toEqual({ compatible: true });
    });

    it("reports an open map (additionalProperties with a schema)", () => {
      const tool = new Tool(options({ parameters: { type: "object", properties: { labels: { type: "object", additionalProperties: { type: "string" } } } } }));

      expect(tool.strictCompatibility).toEqual({ compatible: false, reason: "parameters.labels is an open map (additionalProperties), which strict mode does not support" });
    });

    it("reports a zod record as an open map", () => {
      const tool = new Tool(options({ parameters: z.object({ labels: z.record(z.string(), z.string()) }) }));

      expect(tool.strictCompatibility).toEqual({ compatible: false, reason: "parameters.labels is an open map (additionalProperties), which strict mode does not support" });
    });

    it("reports an object without declared properties", () => {
      const tool = new Tool(options({ parameters: { type: "object", properties: { anything: { type: "object" } } } }));

      expect(tool.strictCompatibility).toEqual({ compatible: false, reason: "parameters.anything is an object without declared properties" });
    });

    it("reports oneOf", () => {
      const tool = new Tool(options({ parameters: { type: "object", properties: { id: { oneOf: [{ type: "string" }, { type: "integer" }] } } } }));

      expect(tool.strictCompatibility).toEqual({ compatible: false, reason: "parameters.id uses 'oneOf', which strict mode does not support" });
    });

    it("reports a tuple", () => {
      const tool = new Tool(options({ parameters: { type: "object", properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, maxItems: 2 } } } }));

      expect(tool.strictCompatibility).toEqual({ compatible: false, reason: "parameters.point uses 'prefixItems' (a tuple), which strict mode does not support" });
    });

    it("reports nesting deeper than 10 levels and accepts 10", () => {
      expect(strictCompatibility(nested(9))).toEqual({ compatible: true });
      expect(strictCompatibility(nested(10))).toEqual({ compatible: false, reason: "parameters.a.a.a.a.a.a.a.a.a.a is nested more than 10 levels deep" });
    });

    it("reports a problem inside an array's items and inside $defs", () => {
      expect(strictCompatibility({ type: "object", properties: { rows: { type: "array", items: { type: "object" } } } })).toEqual({
        compatible: false,
        reason: "parameters.rows[] is an object without declared properties",
      });
      expect(
        strictCompatibility({ type: "object", properties: { node: { $ref: "#/$defs/Node" } }, $defs: { Node: { type: "object", properties: { v: { not: { type: "null" } } } } } }),
      ).toEqual({ compatible: false, reason: "$defs.Node.v uses 'not', which strict mode does not support" });
    });

    it("reports an external $ref", () => {
      expect(strictCompatibility({ type: "object", properties: { x: { $ref: "https://example.com/x.json" } } })).toEqual({
        compatible: false,
        reason: "parameters.x refers to an external schema (https://example.com/x.json)",
      });
    });

    it("reports a schema without a type (any JSON value), on a parameter, a nested property or array items", () => {
      expect(strictCompatibility({ type: "object", properties: { data: {} } })).toEqual({
        compatible: false,
        reason: "parameters.data has no type, so it accepts any JSON value, which strict mode does not support (it needs 'type', 'anyOf', '$ref', 'enum' or 'const')",
      });
      expect(strictCompatibility({ type: "object", properties: { row: { type: "object", properties: { value: { description: "Anything." } }, additionalProperties: false } } })).toEqual({
        compatible: false,
        reason: "parameters.row.value has no type, so it accepts any JSON value, which strict mode does not support (it needs 'type', 'anyOf', '$ref', 'enum' or 'const')",
      });
      expect(strictCompatibility({ type: "object", properties: { rows: { type: "array", items: {} } } })).toEqual({
        compatible: false,
        reason: "parameters.rows[] has no type, so it accepts any JSON value, which strict mode does not support (it needs 'type', 'anyOf', '$ref', 'enum' or 'const')",
      });
    });

    it("reports a boolean schema", () => {
      expect(strictCompatibility({ type: "object", properties: { rows: { type: "array", items: true } } })).toEqual({
        compatible: false,
        reason: "parameters.rows[] is the boolean schema true, which strict mode does not support",
      });
    });

    it("accepts a $ref with a description beside it, which the strict form wraps in anyOf", () => {
      expect(
        strictCompatibility({
          type: "object",
          properties: { parent: { $ref: "#/$defs/Node", description: "The parent." } },
          $defs: { Node: { type: "object", properties: { parent: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] } }, additionalProperties: false } },
        }),
      ).toEqual({ compatible: true });
    });

    it("reports too many enum values", () => {
      const values = Array.from({ length: 1001 }, (_, i) => `v${i}`);

      expect(strictCompatibility({ type: "object", properties: { pick: { type: "string", enum: values } } })).toEqual({
        compatible: false,
        reason: "it has 1001 enum values (strict mode allows 1000)",
      });
    });
  });
});

describe("Toolset", () => {
  it("holds a frozen copy of its tools and its name", () => {
    const tools = [new Tool(options({ name: "a" })), new Tool(options({ name: "b" }))];
    const toolset = new Toolset(tools, { name: "docs" });
    tools.pop();

    expect(toolset.name).toBe("docs");
    expect(toolset.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(Object.isFrozen(toolset.tools)).toBe(true);
  });

  it("has no name by default", () => {
    expect(new Toolset([]).name).toBeUndefined();
  });

  it("rejects tools that are not an array", () => {
    expectConfigurationError(() => new Toolset("a" as unknown as Tool[], { name: "docs" }), "Toolset 'docs'", "new Toolset(tools) needs an array of Tool objects.");
  });

  it("rejects an item that is not a Tool", () => {
    expectConfigurationError(
      () => new Toolset([new Tool(options()), { name: "fake" } as unknown as Tool], { name: "docs" }),
      "Toolset 'docs'",
      "Toolset 'docs' was given an object at tools[1], which is not a Tool: pass Tool objects.",
    );
  });
});

describe("strictCompatibility (draft-07 definitions)", () => {
  it("checks definitions like $defs", () => {
    const { strictCompatibility } = require("../../src/tools/strictCompatibility") as typeof import("../../src/tools/strictCompatibility");
    expect(
      strictCompatibility({ type: "object", properties: { a: { $ref: "#/definitions/A" } }, definitions: { A: { type: "object", additionalProperties: { type: "string" } } } }),
    ).toEqual({ compatible: false, reason: "$defs.A is an open map (additionalProperties), which strict mode does not support" });
  });
});
