// Typed tools over MCP: the output schemas codegen wrote (the valid/output-schemas and
// valid/tool-annotations fixtures, imported with their generated modules), listed by serveMcp and
// answered with structuredContent that the MCP SDK's own client validates against them.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { registerToolSchemas, Tool } from "toolwright";
import { serveMcp } from "toolwright/mcp";
import { toolSchemas as outputSchemas } from "../codegen/fixtures/valid/output-schemas/expected.generated";
import { count, Tools } from "../codegen/fixtures/valid/output-schemas/input";
import { toolSchemas as toolAnnotations } from "../codegen/fixtures/valid/tool-annotations/expected.generated";
import { define, Tickets } from "../codegen/fixtures/valid/tool-annotations/input";
import { closeAll, closing, connectClient } from "../helpers/mcpHttpTesting";

afterEach(closeAll);

// Both fixtures' modules register as "expected.generated.ts", the second replacing the first: keep both, under their folders' names.
registerToolSchemas(outputSchemas, { module: "valid/output-schemas/expected.generated.ts", command: "UPDATE_FIXTURES=1 npx jest test/codegen/typeMapping.test.ts" });
registerToolSchemas(toolAnnotations, { module: "valid/tool-annotations/expected.generated.ts", command: "UPDATE_FIXTURES=1 npx jest test/codegen/typeMapping.test.ts" });

async function serve(tools: ConstructorParameters<typeof Tool>[0][] | readonly unknown[]) {
  const server = serveMcp({ tools: tools as never });
  closing.push(() => server.close());
  const { url } = await server.listen();
  return connectClient(url);
}

const ticket = {
  type: "object",
  properties: { id: { type: "string" }, opened: { type: "string", format: "date-time", description: "When it was opened." } },
  required: ["id", "opened"],
};

describe("serveMcp outputSchema and structuredContent", () => {
  it("lists the output schema of each return type: objects as they are, anything else as { result }", async () => {
    const { client } = await serve([new Tools(), count]);

    const { tools } = await client.listTools();

    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.outputSchema]))).toEqual({
      find: { type: "object", properties: { result: { anyOf: [ticket, { type: "null" }] } }, required: ["result"], additionalProperties: false },
      forget: undefined,
      greet: { type: "object", properties: { result: { type: "string" } }, required: ["result"], additionalProperties: false },
      ids: { type: "object", properties: { result: { type: "array", items: { type: "string" } } }, required: ["result"], additionalProperties: false },
      index: undefined,
      raw: undefined,
      search: {
        type: "object",
        properties: { tickets: { type: "array", items: ticket }, total: { type: "number" } },
        required: ["tickets", "total"],
        description: "The tickets found.",
      },
      status: { type: "object", properties: { result: { type: ["string", "null"], enum: ["open", "closed", null] } }, required: ["result"], additionalProperties: false },
      // The $defs of a recursive type move to the root, where its references point.
      tree: {
        type: "object",
        properties: { result: { $ref: "#/$defs/Folder" } },
        required: ["result"],
        additionalProperties: false,
        $defs: { Folder: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Folder" } } }, required: ["name", "children"] } },
      },
      count: { type: "object", properties: { result: { type: "number" } }, required: ["result"], additionalProperties: false },
    });
  });

  it("answers with structuredContent the SDK client accepts, beside the text a model would get", async () => {
    const { client } = await serve([new Tools(), count]);
    // The SDK's client validates structuredContent against the schemas it listed.
    await client.listTools();
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      return { text: (result.content[0] as { text: string }).text, structured: result.structuredContent, isError: result.isError };
    };

    expect(await call("search", { query: "T-9" })).toEqual({
      text: '{"tickets":[{"id":"T-9","opened":"1970-01-01T00:00:00.000Z"}],"total":1}',
      structured: { tickets: [{ id: "T-9", opened: "1970-01-01T00:00:00.000Z" }], total: 1 },
      isError: undefined,
    });
    expect(await call("greet", { name: "ada" })).toEqual({ text: "hello ada", structured: { result: "hello ada" }, isError: undefined });
    expect(await call("find", { id: "" })).toEqual({ text: "null", structured: { result: null }, isError: undefined });
    expect(await call("find", { id: "T-1" })).toEqual({ text: '{"id":"T-1","opened":"1970-01-01T00:00:00.000Z"}', structured: { result: { id: "T-1", opened: "1970-01-01T00:00:00.000Z" } }, isError: undefined });
    expect(await call("tree")).toEqual({ text: '{"name":"/","children":[]}', structured: { result: { name: "/", children: [] } }, isError: undefined });
    expect(await call("count", { items: ["a", "b"] })).toEqual({ text: "2", structured: { result: 2 }, isError: undefined });
    // No output schema, no structuredContent.
    expect(await call("forget", { id: "x" })).toEqual({ text: "null", structured: undefined, isError: undefined });
    // A failed call has none either: the SDK's client accepts an error result without it.
    expect(await call("greet", { name: 5 })).toEqual({
      text: "Tool 'greet' was called with invalid arguments: name must be string (got number 5). Call the tool again with corrected arguments.",
      structured: undefined,
      isError: true,
    });
  });

  it("lists @title and the annotation hints from JSDoc, the title also in annotations for older clients", async () => {
    const { client } = await serve([new Tickets(), define]);

    const { tools } = await client.listTools();

    expect(tools.map(({ name, title, annotations }) => ({ name, title, annotations }))).toEqual([
      { name: "search", title: "Search tickets", annotations: { title: "Search tickets", readOnlyHint: true, openWorldHint: false } },
      { name: "delete_ticket", title: "Delete a ticket", annotations: { title: "Delete a ticket", destructiveHint: true, idempotentHint: true } },
      { name: "note", title: undefined, annotations: { readOnlyHint: false, destructiveHint: false } },
      { name: "define", title: "Dictionary", annotations: { title: "Dictionary", readOnlyHint: true } },
    ]);
  });

  it("refuses to send a result that does not match the output schema, naming where it differs", async () => {
    const liar = new Tool({
      name: "liar",
      description: "Returns what its schema does not say.",
      parameters: { type: "object", properties: {} },
      outputSchema: { type: "object", properties: { total: { type: "integer" }, items: { type: "array", items: { type: "string" } } }, required: ["total", "items"] },
      function: () => ({ total: "three", items: ["a", 2] }),
    });
    const bigint = new Tool({
      name: "bigint",
      description: "Returns a bigint its text handler can show.",
      parameters: { type: "object", properties: {} },
      outputSchema: { type: "object", properties: { size: { type: "integer" } } },
      outputsToString: { handler: (value) => String((value as { size: bigint }).size) },
      function: () => ({ size: 10n }),
    });
    const { client } = await serve([liar, bigint]);
    await client.listTools();

    expect(await client.callTool({ name: "liar", arguments: {} })).toEqual({
      content: [{ type: "text", text: "Tool 'liar' returned a value that does not match its output schema: total must be integer (got string \"three\"); items[1] must be string (got number 2). Fix the tool or its declared return type." }],
      isError: true,
    });
    expect(await client.callTool({ name: "bigint", arguments: {} })).toEqual({
      content: [{ type: "text", text: "Tool 'bigint' returned a value with no JSON form for its structuredContent: size holds bigint 10n, which has no JSON form; return plain data." }],
      isError: true,
    });
  });

  it("refuses a tool whose outputSchema is not a valid JSON Schema when the server is made", () => {
    const broken = new Tool({ name: "broken", description: "Broken.", parameters: { type: "object", properties: {} }, outputSchema: { type: "object", properties: 5 } as never, function: () => ({}) });

    expect(() => serveMcp({ tools: [broken] })).toThrow(
      expect.objectContaining({
        name: "ConfigurationError",
        message: "Tool 'broken' has an outputSchema that is not a valid JSON Schema: schema is invalid: data/properties must be object. Fix the schema, or leave outputSchema out.",
      }),
    );
  });
});
