// serveMcp against what the protocol's own tools and text require: the MCP Inspector's CLI (its
// --strict schema check, tools/list and tools/call), and raw JSON-RPC probes of the Streamable HTTP
// transport with fetch, asserting the statuses and error bodies the spec (2025-06-18 and later) and
// JSON-RPC 2.0 give. The SDK's own client is used throughout the other serveMcp tests.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Tool } from "toolwright";
import { serveMcp } from "toolwright/mcp";
import "../../examples/support/tools.generated";
import { SupportTools, supportState } from "../../examples/support/supportTools";
import { demoStore } from "../../examples/support/ticketStore";
import { closeAll, closing, errorBody, initializeBody, raw, rawSession, sseMessages } from "../helpers/mcpHttpTesting";

afterEach(closeAll);

const inspector = path.resolve(__dirname, "../../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const customers: Readonly<Record<string, string>> = { "Bearer token-c42": "c-42" };

async function startSupportDesk(): Promise<string> {
  const server = serveMcp({
    name: "support-desk",
    version: "1.0.0",
    tools: [new SupportTools(demoStore())],
    stateSchema: supportState,
    authenticate: (request) => {
      const customer = Object.hasOwn(customers, request.headers.authorization ?? "") ? customers[request.headers.authorization!] : undefined;
      if (!customer) throw new Error("unknown bearer token");
      return customer;
    },
    session: ({ principal }) => ({ customer_id: principal! }),
  });
  closing.push(() => server.close());
  return (await server.listen()).url;
}

/** Runs the Inspector's CLI (a child process, so this process's server keeps answering) with a home of its own. */
function runInspector(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(path.join(tmpdir(), "inspector-home-"));
  closing.push(async () => rmSync(home, { recursive: true, force: true }));
  return new Promise((resolve) => {
    execFile(process.execPath, [inspector, "--cli", ...args], { env: { PATH: process.env.PATH ?? "", HOME: home, MCP_CATALOG_PATH: path.join(home, "mcp.json") }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const ticket = {
  type: "object",
  properties: { id: { type: "string" }, customerId: { type: "string" }, subject: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
  required: ["id", "customerId", "subject", "status"],
};

describe("serveMcp and the MCP Inspector CLI", () => {
  it("passes tools/list --strict: exit 0, no schema findings, the tools with their output schemas and annotations", async () => {
    const url = await startSupportDesk();

    const run = await runInspector([url, "--transport", "http", "--method", "tools/list", "--strict", "--format", "json", "--header", "Authorization: Bearer token-c42"]);

    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { result: { tools: Array<Record<string, unknown>> }; schemaFindings?: unknown };
    expect(printed.schemaFindings).toBeUndefined();
    expect(printed.result.tools.map(({ name, title, outputSchema, annotations }) => ({ name, title, outputSchema, annotations }))).toEqual([
      {
        name: "search_tickets",
        title: "Search tickets",
        outputSchema: { type: "object", properties: { tickets: { type: "array", items: ticket } }, required: ["tickets"] },
        annotations: { title: "Search tickets", readOnlyHint: true, openWorldHint: false },
      },
      { name: "close_ticket", title: "Close a ticket", outputSchema: ticket, annotations: { title: "Close a ticket", destructiveHint: false, idempotentHint: true, openWorldHint: false } },
    ]);
  });

  it("exits 6 under --strict for a schema it finds unportable (the check this suite relies on has teeth)", async () => {
    const loose = new Tool({ name: "loose", description: "Takes anything as x.", parameters: { type: "object", properties: { x: true as never } }, function: () => "ok" });
    const server = serveMcp({ tools: [loose] });
    closing.push(() => server.close());
    const { url } = await server.listen();

    const run = await runInspector([url, "--transport", "http", "--method", "tools/list", "--strict", "--format", "json"]);

    expect(run.code).toBe(6);
    expect((JSON.parse(run.stdout) as { schemaFindings: unknown }).schemaFindings).toEqual([
      { toolName: "loose", findings: [expect.objectContaining({ rule: "boolean-schema", severity: "error", schema: "inputSchema", path: "properties.x" })] },
    ]);
  });

  it("calls a tool: exit 0, the text and the structuredContent", async () => {
    const url = await startSupportDesk();

    const run = await runInspector([url, "--transport", "http", "--method", "tools/call", "--tool-name", "search_tickets", "--tool-arg", "query=printer", "--format", "json", "--header", "Authorization: Bearer token-c42"]);

    expect(run.code).toBe(0);
    const tickets = [{ id: "T-1", customerId: "c-42", subject: "Printer offline", status: "open" }];
    expect(JSON.parse(run.stdout)).toEqual({ result: { content: [{ type: "text", text: JSON.stringify({ tickets }) }], structuredContent: { tickets } } });
  });

  it("reports a refused call as a tool error (exit 5), and refused credentials as auth_required (exit 3)", async () => {
    const url = await startSupportDesk();

    const refusedCall = await runInspector([url, "--transport", "http", "--method", "tools/call", "--tool-name", "close_ticket", "--tool-arg", "ticketId=T-3", "--format", "json", "--header", "Authorization: Bearer token-c42"]);
    expect(refusedCall.code).toBe(5);
    expect(JSON.parse(refusedCall.stdout)).toEqual({ result: { content: [{ type: "text", text: "Tool 'close_ticket' failed: no ticket T-3 for this customer." }], isError: true } });

    const unauthorized = await runInspector([url, "--transport", "http", "--method", "tools/list", "--format", "json", "--stored-auth-only", "--header", "Authorization: Bearer token-stolen"]);
    expect(unauthorized.code).toBe(3);
    expect(unauthorized.stdout).toBe("");
    expect((JSON.parse(unauthorized.stderr) as { error: { code: string } }).error.code).toBe("auth_required");
  });
});

describe("serveMcp and raw JSON-RPC over Streamable HTTP", () => {
  async function session(): Promise<{ url: string; headers: Record<string, string> }> {
    const url = await startSupportDesk();
    const auth = { authorization: "Bearer token-c42" };
    const id = await rawSession(url, auth);
    return { url, headers: { ...auth, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" } };
  }
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

  it("answers initialize with a session id, the negotiated version and the server's capabilities", async () => {
    await startSupportDesk().then(async (url) => {
      const answer = await raw(url, { body: initializeBody, headers: { authorization: "Bearer token-c42" }, read: ["mcp-session-id", "content-type"] });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toBe("text/event-stream");
      expect(answer.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(sseMessages(answer.text)).toEqual([
        { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "support-desk", version: "1.0.0" } } },
      ]);
    });
  });

  it("answers a notification with 202 and no body, a request with its response, an unknown method with -32601", async () => {
    const { url, headers } = await session();

    expect(await raw(url, { body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } }), headers })).toEqual({ status: 202, headers: {}, text: "" });
    expect(sseMessages((await raw(url, { body: JSON.stringify(ping(2)), headers })).text)).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    const unknown = await raw(url, { body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "resources/list" }), headers });
    expect(unknown.status).toBe(200);
    expect(sseMessages(unknown.text)).toEqual([{ jsonrpc: "2.0", id: 3, error: { code: -32601, message: "Method not found" } }]);
  });

  it("refuses a batch under 2025-06-18 (batches were removed) and answers one under 2025-03-26", async () => {
    const { url, headers } = await session();
    const batch = JSON.stringify([ping(4), ping(5)]);

    expect(await raw(url, { body: batch, headers })).toEqual({
      status: 400,
      headers: {},
      text: errorBody(-32600, "Invalid Request: protocol version 2025-06-18 and later take one JSON-RPC message per request, not a batch (JSON array)."),
    });
    const older = await raw(url, { body: batch, headers: { ...headers, "mcp-protocol-version": "2025-03-26" } });
    expect(older.status).toBe(200);
    expect(sseMessages(older.text)).toEqual([
      { jsonrpc: "2.0", id: 4, result: {} },
      { jsonrpc: "2.0", id: 5, result: {} },
    ]);
  });

  it("answers bad JSON with -32700, JSON that is no JSON-RPC message (or an empty batch) with -32600", async () => {
    const { url, headers } = await session();
    const notJson = (() => {
      try {
        return JSON.parse("[1,") as never;
      } catch (error) {
        return (error as Error).message;
      }
    })();

    expect(await raw(url, { body: "[1,", headers })).toEqual({ status: 400, headers: {}, text: errorBody(-32700, `the body is not JSON: ${notJson}`) });
    expect(await raw(url, { body: '{"hello":"world"}', headers })).toEqual({ status: 400, headers: {}, text: errorBody(-32600, "Invalid Request: the body is not a JSON-RPC 2.0 message.") });
    expect(await raw(url, { body: '{"jsonrpc":"1.0","id":1,"method":"ping"}', headers })).toEqual({ status: 400, headers: {}, text: errorBody(-32600, "Invalid Request: the body is not a JSON-RPC 2.0 message.") });
    expect(await raw(url, { body: "[]", headers })).toEqual({ status: 400, headers: {}, text: errorBody(-32600, "Invalid Request: the body is an empty batch.") });
  });

  it("answers a POST that does not accept both JSON and SSE with 406, and a body that is not JSON with 415", async () => {
    const { url, headers } = await session();

    expect(await raw(url, { body: JSON.stringify(ping(6)), headers: { ...headers, accept: "application/json" } })).toEqual({
      status: 406,
      headers: {},
      text: errorBody(-32000, "Not Acceptable: Client must accept both application/json and text/event-stream"),
    });
    expect(await raw(url, { body: JSON.stringify(ping(7)), headers: { ...headers, "content-type": "text/plain" } })).toEqual({
      status: 415,
      headers: {},
      text: errorBody(-32000, "Unsupported Media Type: Content-Type must be application/json"),
    });
    expect(await raw(url, { method: "GET", headers: { ...headers, accept: "application/json" } })).toEqual({
      status: 406,
      headers: {},
      text: errorBody(-32000, "Not Acceptable: Client must accept text/event-stream"),
    });
  });

  it("answers a request without a session id with 400, an unknown one with 404, an unsupported protocol version with 400", async () => {
    const { url, headers } = await session();
    const { "mcp-session-id": _id, ...withoutSession } = headers;

    expect(await raw(url, { body: JSON.stringify(ping(8)), headers: withoutSession })).toEqual({
      status: 400,
      headers: {},
      text: errorBody(-32000, "no mcp-session-id header: send an initialize request first, then the session id it answers with."),
    });
    expect(await raw(url, { body: JSON.stringify(ping(9)), headers: { ...headers, "mcp-session-id": "00000000-0000-0000-0000-000000000000" } })).toEqual({
      status: 404,
      headers: {},
      text: errorBody(-32001, "no session '00000000-0000-0000-0000-000000000000' (it ended, or this server restarted); initialize a new one."),
    });
    expect(await raw(url, { body: JSON.stringify(ping(10)), headers: { ...headers, "mcp-protocol-version": "1999-01-01" } })).toEqual({
      status: 400,
      headers: {},
      text: errorBody(-32000, "Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)"),
    });
  });

  it("ends a session on DELETE (200), after which the session id is unknown (404)", async () => {
    const { url, headers } = await session();

    expect(await raw(url, { method: "DELETE", headers })).toEqual({ status: 200, headers: {}, text: "" });
    expect(await raw(url, { body: JSON.stringify(ping(11)), headers })).toEqual({
      status: 404,
      headers: {},
      text: errorBody(-32001, `no session '${headers["mcp-session-id"]}' (it ended, or this server restarted); initialize a new one.`),
    });
    expect((await raw(url, { method: "DELETE", headers })).status).toBe(404);
  });
});
