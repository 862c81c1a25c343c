import { Tool, type ToolCall, ToolArgumentsError } from "toolwright";
import { z } from "zod";
import { prepareArguments } from "../../src/tools/prepareArguments";

const search = new Tool({
  name: "search",
  description: "Search tickets.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string" },
      customerId: { type: "string" },
      limit: { type: "integer" },
      sort: { type: "string", enum: ["newest", "oldest"] },
      filter: {
        anyOf: [
          {
            type: "object",
            properties: { range: { type: "object", properties: { from: { type: "string" }, to: { type: "string" } }, required: ["from"], additionalProperties: false } },
            additionalProperties: false,
          },
          { type: "null" },
        ],
      },
      items: { type: "array", items: { type: "object", properties: { name: { type: "string" } }, required: ["name"], additionalProperties: false } },
    },
    required: ["query", "customerId"],
  },
  inputsFromState: { customer_id: "customerId" },
  function: () => "ok",
});

const zodSearch = new Tool({
  name: "search",
  description: "Search tickets.",
  parameters: z.object({
    query: z.string(),
    customerId: z.string(),
    limit: z.number().int().default(5),
    sort: z.enum(["newest", "oldest"]).optional(),
    filter: z.object({ range: z.object({ from: z.string(), to: z.string().optional() }) }).nullable().optional(),
    items: z.array(z.object({ name: z.string() })).optional(),
  }),
  inputsFromState: { customer_id: "customerId" },
  function: () => "ok",
});

const parameterList = "query, limit, sort, filter, items";
const retry = "Call the tool again with corrected arguments.";

function call(args: ToolCall["arguments"]): ToolCall {
  return { id: "call_1", toolName: "search", arguments: args };
}

function failureMessage(tool: Tool, args: unknown): string {
  const prepared = prepareArguments(tool, call(args as ToolCall["arguments"]));
  if (prepared.ok) throw new Error(`expected a failure, got ${JSON.stringify(prepared.args)}`);
  expect(prepared.failure.error).toBeInstanceOf(ToolArgumentsError);
  expect(prepared.failure.error.message).toBe(prepared.failure.message);
  return prepared.failure.message;
}

function preparedArgs(tool: Tool, args: unknown): Record<string, unknown> {
  const prepared = prepareArguments(tool, call(args as ToolCall["arguments"]));
  if (!prepared.ok) throw new Error(`expected arguments, got: ${prepared.failure.message}`);
  return prepared.args;
}

function jsonParseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

describe("prepareArguments", () => {
  describe.each([
    ["a JSON Schema tool", search],
    ["a zod tool", zodSearch],
  ])("for %s", (_kind, tool) => {
    it("parses arguments given as JSON text", () => {
      expect(preparedArgs(tool, '{"query": "refund", "limit": 3}')).toMatchObject({ query: "refund", limit: 3 });
    });

    it("refuses arguments that are not valid JSON", () => {
      const text = '{"query": "refund", ';

      expect(failureMessage(tool, text)).toBe(
        `Tool 'search' was called with arguments that are not valid JSON (${jsonParseMessage(text)}). Send one JSON object with the tool's parameters: ${parameterList}.`,
      );
    });

    it("refuses arguments that are not an object", () => {
      const expected = (got: string) => `Tool 'search' was called with arguments that are not a JSON object (got ${got}). Send one JSON object with the tool's parameters: ${parameterList}.`;

      expect(failureMessage(tool, "[1, 2]")).toBe(expected("an array"));
      expect(failureMessage(tool, [1, 2])).toBe(expected("an array"));
      expect(failureMessage(tool, "42")).toBe(expected("number 42"));
      expect(failureMessage(tool, 42)).toBe(expected("number 42"));
      expect(failureMessage(tool, "null")).toBe(expected("null"));
      expect(failureMessage(tool, null)).toBe(expected("null"));
    });

    it("names a missing required property", () => {
      expect(failureMessage(tool, {})).toBe(`Tool 'search' was called with invalid arguments: query is required. ${retry}`);
    });

    it("names an ill-typed property with what it got", () => {
      expect(failureMessage(tool, { query: "refund", limit: "5" })).toBe(`Tool 'search' was called with invalid arguments: limit must be integer (got string "5"). ${retry}`);
    });

    it("names an unknown property and lists the parameters", () => {
      expect(failureMessage(tool, { query: "refund", max: 5 })).toBe(
        `Tool 'search' was called with invalid arguments: max is not a parameter of this tool (parameters: ${parameterList}). ${retry}`,
      );
    });

    it("refuses a property named like an injected parameter, so the model can never supply it", () => {
      expect(failureMessage(tool, { query: "refund", customerId: "c-evil" })).toBe(
        `Tool 'search' was called with invalid arguments: customerId is not a parameter of this tool (parameters: ${parameterList}). ${retry}`,
      );
    });

    it("names an enum mismatch with the allowed values", () => {
      expect(failureMessage(tool, { query: "refund", sort: "best" })).toBe(
        `Tool 'search' was called with invalid arguments: sort must be one of "newest", "oldest" (got string "best"). ${retry}`,
      );
    });

    it("names nested paths", () => {
      expect(failureMessage(tool, { query: "refund", filter: { range: { from: 20240101 } } })).toBe(
        `Tool 'search' was called with invalid arguments: filter.range.from must be string (got number 20240101). ${retry}`,
      );
      expect(failureMessage(tool, { query: "refund", items: [{ name: "a" }, { name: 7 }] })).toBe(
        `Tool 'search' was called with invalid arguments: items[1].name must be string (got number 7). ${retry}`,
      );
    });

    it("lists several problems in one message", () => {
      expect(failureMessage(tool, { query: 1, limit: "5", extra: true })).toBe(
        `Tool 'search' was called with invalid arguments: extra is not a parameter of this tool (parameters: ${parameterList}); query must be string (got number 1); limit must be integer (got string "5"). ${retry}`,
      );
    });

    it("reports the object branch of a T | null property", () => {
      expect(failureMessage(tool, { query: "refund", filter: { range: {} } })).toBe(`Tool 'search' was called with invalid arguments: filter.range.from is required. ${retry}`);
      expect(failureMessage(tool, { query: "refund", filter: "today" })).toBe(
        `Tool 'search' was called with invalid arguments: filter must be object or null (got string "today"). ${retry}`,
      );
    });

    it("turns null for optional properties into absent ones, top level and nested", () => {
      const args = preparedArgs(tool, { query: "refund", sort: null, filter: { range: { from: "a", to: null } }, items: null });

      expect(args).toMatchObject({ query: "refund", filter: { range: { from: "a" } } });
      expect("sort" in args).toBe(false);
      expect("items" in args).toBe(false);
      expect("to" in (args.filter as { range: object }).range).toBe(false);
    });

    it("keeps null for a property that accepts null", () => {
      expect(preparedArgs(tool, { query: "refund", filter: null })).toMatchObject({ query: "refund", filter: null });
    });

    it("refuses null for a required property", () => {
      expect(failureMessage(tool, { query: null })).toBe(`Tool 'search' was called with invalid arguments: query must be string (got null). ${retry}`);
    });

    it("refuses null nested in a required position", () => {
      expect(failureMessage(tool, { query: "refund", filter: { range: { from: null } } })).toBe(
        `Tool 'search' was called with invalid arguments: filter.range.from must be string (got null). ${retry}`,
      );
    });
  });

  it("passes a JSON Schema tool's arguments through without defaults", () => {
    expect(preparedArgs(search, { query: "refund", limit: null })).toEqual({ query: "refund" });
  });

  it("applies zod defaults, also where the model sent null", () => {
    expect(preparedArgs(zodSearch, { query: "refund" })).toEqual({ query: "refund", limit: 5 });
    expect(preparedArgs(zodSearch, { query: "refund", limit: null })).toEqual({ query: "refund", limit: 5 });
  });

  it("carries the problems on the ToolArgumentsError", () => {
    const prepared = prepareArguments(search, call({ query: "refund", limit: "5" }));

    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    const error = prepared.failure.error as ToolArgumentsError;
    expect(error.toolName).toBe("search");
    expect(error.problems).toEqual([{ path: "limit", message: 'must be integer (got string "5")' }]);
  });

  it("lists no parameters as none", () => {
    const empty = new Tool({ name: "ping", description: "Ping.", parameters: { type: "object", properties: {} }, function: () => "pong" });

    expect(prepareArguments(empty, { toolName: "ping", arguments: "[]" })).toMatchObject({
      ok: false,
      failure: { message: "Tool 'ping' was called with arguments that are not a JSON object (got an array). Send one JSON object with the tool's parameters: none." },
    });
  });
});
