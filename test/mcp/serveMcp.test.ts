// serveMcp from the outside, with the real MCP SDK client: the support-desk example as a child
// process over stdio (what an MCP host launches), and servers built here over Streamable HTTP in
// this process. Asserted from what a client sees (tool lists, results, HTTP statuses) and from what
// the tools saw (their arguments, State, abort signals); never from timings.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Agent, ConfigurationError, defineTool, registerToolSchemas, type State, type StateSchema, Tool } from "toolwright";
import { type McpSessionContext, type McpToolServer, serveMcp } from "toolwright/mcp";
import { ScriptedChatGenerator } from "toolwright/testing";
import { z } from "zod";
import "../../examples/support/tools.generated";
import { SupportTools, supportState } from "../../examples/support/supportTools";
import { demoStore } from "../../examples/support/ticketStore";

const exampleServer = path.resolve(__dirname, "../../dist/examples/mcp/server.js");

// Everything a test opens (clients, servers, child processes through their clients) is closed after it.
const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function text(result: unknown): string {
  const content = (result as CallToolResult).content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  return (content[0] as { text: string }).text;
}

/** The result of a call that failed: isError set, one text. */
function failure(result: unknown): string {
  expect((result as CallToolResult).isError).toBe(true);
  return text(result);
}

/** The result of a call that succeeded, parsed from its JSON text. */
function success(result: unknown): unknown {
  expect((result as CallToolResult).isError).toBeUndefined();
  return JSON.parse(text(result));
}

// ---------------------------------------------------------------------------------------------
// The support-desk example over stdio, as a child process.

describe("serveMcp over stdio: the support-desk example as a child process", () => {
  beforeAll(() => {
    if (!existsSync(exampleServer)) throw new Error(`${exampleServer} is missing: run \`npm run build\` first (npm test does).`);
  });

  function spawnExample(env: Record<string, string>): { client: Client; transport: StdioClientTransport; stderr: () => string } {
    const transport = new StdioClientTransport({ command: process.execPath, args: [exampleServer], env, stderr: "pipe", cwd: path.resolve(__dirname, "../..") });
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "serveMcp-test", version: "1.0.0" });
    closing.push(() => client.close());
    return { client, transport, stderr: () => stderr };
  }

  it("lists the tools without the parameters State fills, and serves only the session's customer", async () => {
    const { client, transport } = spawnExample({ SUPPORT_CUSTOMER_ID: "c-42" });
    await client.connect(transport);

    expect(client.getServerVersion()).toEqual({ name: "support-desk", version: "1.0.0" });
    expect(client.getInstructions()).toBe("Look up and close the signed-in customer's support tickets.");
    const { tools } = await client.listTools();
    // The output schemas come from the methods' return types ({ tickets: Ticket[] } and Ticket), the
    // titles and annotations from their JSDoc tags.
    const ticket = {
      type: "object",
      properties: { id: { type: "string" }, customerId: { type: "string" }, subject: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
      required: ["id", "customerId", "subject", "status"],
    };
    expect(tools).toEqual([
      {
        name: "search_tickets",
        title: "Search tickets",
        description: "Search the customer's support tickets.",
        inputSchema: {
          type: "object",
          properties: {
            query: { type: "string", description: 'Words to look for; "open" or "closed" match the status.' },
            limit: { type: "integer", description: "Maximum number of tickets to return.", default: 5 },
          },
          required: ["query"],
          additionalProperties: false,
        },
        outputSchema: { type: "object", properties: { tickets: { type: "array", items: ticket } }, required: ["tickets"] },
        annotations: { title: "Search tickets", readOnlyHint: true, openWorldHint: false },
      },
      {
        name: "close_ticket",
        title: "Close a ticket",
        description: "Close one of the customer's tickets.",
        inputSchema: {
          type: "object",
          properties: { ticketId: { type: "string", description: "The ticket to close, e.g. T-1." } },
          required: ["ticketId"],
          additionalProperties: false,
        },
        outputSchema: ticket,
        annotations: { title: "Close a ticket", destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
    ]);

    const found = {
      tickets: [
        { id: "T-1", customerId: "c-42", subject: "Printer offline", status: "open" },
        { id: "T-2", customerId: "c-42", subject: "Invoice shows the wrong address", status: "open" },
      ],
    };
    const result = await client.callTool({ name: "search_tickets", arguments: { query: "open" } });
    expect(success(result)).toEqual(found);
    expect(result.structuredContent).toEqual(found);
  });

  it("refuses a customerId sent by the client, without echoing the session's customer", async () => {
    const { client, transport } = spawnExample({ SUPPORT_CUSTOMER_ID: "c-42" });
    await client.connect(transport);

    const refused = failure(await client.callTool({ name: "search_tickets", arguments: { query: "open", customerId: "c-7" } }));

    expect(refused).toBe(
      "Tool 'search_tickets' was called with invalid arguments: customerId is not a parameter of this tool (parameters: query, limit). Call the tool again with corrected arguments.",
    );
    expect(refused).not.toContain("c-42");
    // c-7's ticket stays out of reach: the search still runs for c-42.
    expect(success(await client.callTool({ name: "search_tickets", arguments: { query: "password" } }))).toEqual({ tickets: [] });
  });

  it("answers closing another customer's ticket with the store's error, and closing its own changes what later calls see", async () => {
    const { client, transport } = spawnExample({ SUPPORT_CUSTOMER_ID: "c-42" });
    await client.connect(transport);

    expect(failure(await client.callTool({ name: "close_ticket", arguments: { ticketId: "T-3" } }))).toBe("Tool 'close_ticket' failed: no ticket T-3 for this customer.");

    // close_ticket has no customer parameter: the customer it closes for is customer_id, read from its State parameter.
    expect(success(await client.callTool({ name: "search_tickets", arguments: { query: "printer" } }))).toEqual({
      tickets: [{ id: "T-1", customerId: "c-42", subject: "Printer offline", status: "open" }],
    });
    expect(success(await client.callTool({ name: "close_ticket", arguments: { ticketId: "T-1" } }))).toEqual({
      id: "T-1",
      customerId: "c-42",
      subject: "Printer offline",
      status: "closed",
    });
    expect(success(await client.callTool({ name: "search_tickets", arguments: { query: "open closed" } }))).toEqual({
      tickets: [
        { id: "T-1", customerId: "c-42", subject: "Printer offline", status: "closed" },
        { id: "T-2", customerId: "c-42", subject: "Invoice shows the wrong address", status: "open" },
      ],
    });
  });

  it("without SUPPORT_CUSTOMER_ID the server exits with status 1 and says why on stderr; the client cannot initialize", async () => {
    const { client, transport, stderr } = spawnExample({});
    await expect(client.connect(transport)).rejects.toThrow("MCP error -32000: Connection closed");
    // The stderr pipe may deliver after the close: wait for its end.
    const stderrPipe = transport.stderr as Readable;
    await new Promise<void>((resolve) => (stderrPipe.readableEnded ? resolve() : stderrPipe.once("end", resolve)));
    expect(stderr()).toBe("support-desk MCP server: set SUPPORT_CUSTOMER_ID to the customer this server acts for\n");

    // The SDK's transport does not report the exit status; the same start, run directly, does.
    const run = spawnSync(process.execPath, [exampleServer], { env: { PATH: process.env.PATH ?? "" }, input: "", encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("support-desk MCP server: set SUPPORT_CUSTOMER_ID to the customer this server acts for\n");
  });
});

// ---------------------------------------------------------------------------------------------
// Servers built here, over Streamable HTTP in this process.

const stateSchema = {
  user: { type: z.string() },
  api_key: { type: z.string() },
  notes: { type: z.array(z.string()) },
} satisfies StateSchema;

type TestState = typeof stateSchema;

const accounts: Readonly<Record<string, { user: string; api_key: string }>> = {
  "Bearer token-alice": { user: "alice", api_key: "sk-alice-7f3a9c" },
  "Bearer token-bob": { user: "bob", api_key: "sk-bob-51e0d2" },
};

/** Each session's initial State, from the bearer token of the request that opened it; other tokens are refused. */
function sessionOf({ request }: McpSessionContext): { user: string; api_key: string } {
  const token = request?.headers.authorization ?? "";
  const account = Object.hasOwn(accounts, token) ? accounts[token] : undefined;
  if (!account) throw new Error("unknown bearer token");
  return account;
}

// A defineTool function with a State parameter, as `toolwright codegen` would register it.
export const readNotes = defineTool(function readNotes(state: State<TestState>): string[] {
  return state.get("notes") ?? [];
}, { name: "read_notes" });
registerToolSchemas(
  [
    {
      kind: "function",
      owner: () => readNotes,
      member: "readNotes",
      static: false,
      name: "read_notes",
      description: "Read the session's notes.",
      parameters: [{ name: "state", role: "state", optional: false }],
      schema: { type: "object", properties: {}, additionalProperties: false },
      strict: true,
      options: { inputsFromState: {}, outputsToState: {} },
      source: "test/mcp/serveMcp.test.ts",
    },
  ],
  { module: "test/mcp/serveMcp.test.ts", command: "(registered by the test)" },
);

/** What the tools of `testTools` saw, for assertions. */
interface Seen {
  args: Array<Record<string, unknown>>;
  started: { promise: Promise<void>; resolve: () => void };
  aborted: { promise: Promise<unknown>; resolve: (reason: unknown) => void };
}

function testTools(seen: Seen): Array<Tool | typeof readNotes> {
  return [
    new Tool({
      name: "add_note",
      description: "Add a note for the signed-in user.",
      parameters: z.object({ text: z.string(), user: z.string() }),
      inputsFromState: { user: "user" },
      outputsToState: { notes: { source: "notes" } },
      function: ({ text, user }) => ({ notes: [`${user}: ${text}`] }),
    }),
    readNotes,
    new Tool({
      name: "whoami",
      description: "Say who the session is for.",
      parameters: { type: "object", properties: { user: { type: "string" } }, required: ["user"] },
      inputsFromState: { user: "user" },
      function: (args) => {
        seen.args.push({ ...args });
        return `you are ${String(args.user)}`;
      },
    }),
    new Tool({
      name: "search",
      description: "Search with a query and an optional filter.",
      parameters: { type: "object", properties: { query: { type: "string" }, filter: { type: "object" } }, required: ["query"] },
      function: (args) => {
        seen.args.push({ ...args });
        return `searched ${String(args.query)}`;
      },
    }),
    new Tool({
      name: "call_upstream",
      description: "Call the upstream service with the session's key.",
      parameters: { type: "object", properties: { apiKey: { type: "string" } }, required: ["apiKey"] },
      inputsFromState: { api_key: "apiKey" },
      function: ({ apiKey }) => {
        throw new Error(`the upstream refused key ${String(apiKey)} (Authorization: Bearer ${String(apiKey)})`);
      },
    }),
    new Tool({
      name: "wait",
      description: "Wait until the call is aborted.",
      parameters: { type: "object", properties: {} },
      function: (_args, { signal }) => {
        seen.started.resolve();
        return new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => {
            seen.aborted.resolve(signal.reason);
            reject(signal.reason as Error);
          });
        });
      },
    }),
  ];
}

function newSeen(): Seen {
  return { args: [], started: deferred<void>(), aborted: deferred<unknown>() };
}

async function startServer(options: { toolTimeoutMs?: number } = {}): Promise<{ server: McpToolServer<TestState>; url: string; seen: Seen }> {
  const seen = newSeen();
  const server = serveMcp({ name: "notes", version: "2.0.0", tools: testTools(seen), stateSchema, session: sessionOf, ...options });
  closing.push(() => server.close());
  const { url } = await server.listen();
  return { server, url, seen };
}

async function connect(url: string, authorization: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: authorization } } });
  const client = new Client({ name: "serveMcp-test", version: "1.0.0" });
  await client.connect(transport);
  closing.push(() => client.close());
  return { client, transport };
}

/** A raw POST of a JSON-RPC body, as a client with no SDK would send it. */
async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

const initializeBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("serveMcp over Streamable HTTP", () => {
  it("lists the tools with the schemas the model would see", async () => {
    const { url } = await startServer();
    const { client } = await connect(url, "Bearer token-alice");

    expect(client.getServerVersion()).toEqual({ name: "notes", version: "2.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.inputSchema])).toEqual([
      ["add_note", { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false }],
      ["read_notes", { type: "object", properties: {}, required: [], additionalProperties: false }],
      ["whoami", { type: "object", properties: {}, required: [], additionalProperties: false }],
      ["search", { type: "object", properties: { query: { type: "string" }, filter: { type: "object" } }, required: ["query"], additionalProperties: false }],
      ["call_upstream", { type: "object", properties: {}, required: [], additionalProperties: false }],
      ["wait", { type: "object", properties: {}, additionalProperties: false }],
    ]);
  });

  it("gives each session its own State, filled from the request that opened it", async () => {
    const { server, url } = await startServer();
    const alice = await connect(url, "Bearer token-alice");
    const bob = await connect(url, "Bearer token-bob");
    expect(server.sessionCount).toBe(2);
    expect(alice.transport.sessionId).not.toBe(bob.transport.sessionId);

    expect(text(await alice.client.callTool({ name: "add_note", arguments: { text: "call the printer vendor" } }))).toBe('{"notes":["alice: call the printer vendor"]}');
    expect(text(await bob.client.callTool({ name: "add_note", arguments: { text: "renew the domain" } }))).toBe('{"notes":["bob: renew the domain"]}');
    expect(text(await alice.client.callTool({ name: "add_note", arguments: { text: "order toner" } }))).toBe('{"notes":["alice: order toner"]}');

    // outputsToState appended to each session's own list.
    expect(success(await alice.client.callTool({ name: "read_notes", arguments: {} }))).toEqual(["alice: call the printer vendor", "alice: order toner"]);
    expect(success(await bob.client.callTool({ name: "read_notes", arguments: {} }))).toEqual(["bob: renew the domain"]);
    expect(text(await bob.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are bob");
  });

  it("refuses a session the session function throws for: 403 with its message", async () => {
    const { server, url } = await startServer();
    const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer stolen" } } });
    const client = new Client({ name: "serveMcp-test", version: "1.0.0" });
    closing.push(() => client.close());

    const refused = await client.connect(transport).then(
      () => undefined,
      (error: unknown) => error as Error & { code?: number },
    );

    expect(refused?.code).toBe(403);
    expect(refused?.message).toBe(
      'Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"the session was refused: unknown bearer token"},"id":null}',
    );
    expect(server.sessionCount).toBe(0);
  });

  it("answers an unknown session id with 404 and a request without one with 400", async () => {
    const { server, url } = await startServer();
    await connect(url, "Bearer token-alice");
    const listTools = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });

    expect(await post(url, listTools, { "mcp-session-id": "no-such-session", authorization: "Bearer token-alice" })).toEqual({
      status: 404,
      text: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"no session \'no-such-session\' (it ended, or this server restarted); initialize a new one."},"id":null}',
    });
    expect(await post(url, listTools, { authorization: "Bearer token-alice" })).toEqual({
      status: 400,
      text: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"no mcp-session-id header: send an initialize request first, then the session id it answers with."},"id":null}',
    });
    // JSON.parse's own message, which differs between Node versions.
    const notJson = (() => {
      try {
        return JSON.parse("{not json") as never;
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(await post(url, "{not json", { authorization: "Bearer token-alice" })).toEqual({
      status: 400,
      text: JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: `the body is not JSON: ${notJson}` }, id: null }),
    });
    const elsewhere = await fetch(url.replace(/\/mcp$/, "/other"), { method: "POST", body: initializeBody });
    expect([elsewhere.status, await elsewhere.text()]).toEqual([404, '{"jsonrpc":"2.0","error":{"code":-32000,"message":"MCP is served at /mcp."},"id":null}']);
    expect(server.sessionCount).toBe(1);
  });

  it("keeps no session for an initialize request the transport refuses (406, 415)", async () => {
    const { server, url } = await startServer();

    expect(await post(url, initializeBody, { authorization: "Bearer token-alice", accept: "application/json" })).toEqual({
      status: 406,
      text: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable: Client must accept both application/json and text/event-stream"},"id":null}',
    });
    expect(await post(url, initializeBody, { authorization: "Bearer token-alice", "content-type": "text/plain" })).toEqual({
      status: 415,
      text: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Unsupported Media Type: Content-Type must be application/json"},"id":null}',
    });
    expect(server.sessionCount).toBe(0);
    await connect(url, "Bearer token-alice");
    expect(server.sessionCount).toBe(1);
  });

  it("answers a body over 4 MiB with 413 and closes that connection, and the next request is served", async () => {
    const { url } = await startServer();
    const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(4 * 1024 * 1024) } });

    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: huge });

    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.text()).toBe('{"jsonrpc":"2.0","error":{"code":-32000,"message":"the body is over 4194304 bytes, the limit."},"id":null}');
    const { client } = await connect(url, "Bearer token-bob");
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are bob");
  });

  it("refuses, on a loopback address, a request whose Host header names another host (DNS rebinding)", async () => {
    const { server, url } = await startServer();
    const { port } = new URL(url);

    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { host: `attacker.example:${port}`, "content-type": "application/json" } }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        response.on("end", () => resolve({ status: response.statusCode!, body }));
      });
      request.on("error", reject);
      request.end(initializeBody);
    });

    expect(answer).toEqual({
      status: 403,
      body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"the Host header does not name this server: on a loopback address it answers requests to localhost, 127.0.0.1 or [::1] only."},"id":null}',
    });
    expect(server.sessionCount).toBe(0);
    // localhost names it: served.
    const { client } = await connect(url.replace("127.0.0.1", "localhost"), "Bearer token-alice");
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });

  it("serves the same through handleHttp mounted in an http server of one's own", async () => {
    const seen = newSeen();
    const server = serveMcp({ tools: testTools(seen), stateSchema, session: sessionOf });
    closing.push(() => server.close());
    const httpServer = http.createServer((request, response) => {
      if (request.url === "/health") return void response.end("ok");
      void server.handleHttp(request, response);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => httpServer.close(resolve)));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/`;

    const alice = await connect(url, "Bearer token-alice");
    const bob = await connect(url, "Bearer token-bob");
    await alice.client.callTool({ name: "add_note", arguments: { text: "one" } });

    expect(server.sessionCount).toBe(2);
    expect(success(await alice.client.callTool({ name: "read_notes", arguments: {} }))).toEqual(["alice: one"]);
    expect(success(await bob.client.callTool({ name: "read_notes", arguments: {} }))).toEqual([]);
    expect(await post(url, initializeBody, { authorization: "Bearer nobody" })).toEqual({
      status: 403,
      text: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"the session was refused: unknown bearer token"},"id":null}',
    });
    // A framework that parsed the body already passes it in.
    const parsedBodies = http.createServer((request, response) => {
      let raw = "";
      request.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      request.on("end", () => void server.handleHttp(request, response, raw === "" ? undefined : JSON.parse(raw)));
    });
    await new Promise<void>((resolve) => parsedBodies.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => parsedBodies.close(resolve)));
    const viaParsed = await connect(`http://127.0.0.1:${(parsedBodies.address() as AddressInfo).port}/`, "Bearer token-bob");
    expect(text(await viaParsed.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are bob");
    expect(server.sessionCount).toBe(3);
  });
});

describe("serveMcp with the support-desk tools in this process", () => {
  it("merges outputs into the session's State and lets a State parameter rewrite it", async () => {
    const readState = new Tool({
      name: "read_state",
      description: "Show the session's tickets and closed ids.",
      parameters: { type: "object", properties: {} },
      usesState: true,
      function: (_args, { state }) => ({ tickets: state.get("tickets"), closed: state.get("closed") }),
    });
    const server = serveMcp({ tools: [new SupportTools(demoStore()), readState], stateSchema: supportState, session: () => ({ customer_id: "c-42" }) });
    closing.push(() => server.close());
    const { url } = await server.listen();
    const { client } = await connect(url, "Bearer anything");

    await client.callTool({ name: "search_tickets", arguments: { query: "open" } });
    expect(success(await client.callTool({ name: "read_state", arguments: {} }))).toEqual({
      tickets: [
        { id: "T-1", customerId: "c-42", subject: "Printer offline", status: "open" },
        { id: "T-2", customerId: "c-42", subject: "Invoice shows the wrong address", status: "open" },
      ],
    });
    await client.callTool({ name: "close_ticket", arguments: { ticketId: "T-1" } });

    // close_ticket set `tickets` through its State parameter; its result's id went to `closed`.
    expect(success(await client.callTool({ name: "read_state", arguments: {} }))).toEqual({
      tickets: [
        { id: "T-1", customerId: "c-42", subject: "Printer offline", status: "closed" },
        { id: "T-2", customerId: "c-42", subject: "Invoice shows the wrong address", status: "open" },
      ],
      closed: ["T-1"],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile clients, time limits and cancellation.

/** Sends one tools/call of a session (opened by alice) as raw JSON text (what no SDK client would send) and returns the JSON-RPC response. */
async function rawCall(url: string, transport: StreamableHTTPClientTransport, id: number, params: string): Promise<Record<string, unknown>> {
  const answer = await post(url, `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${params}}`, {
    authorization: "Bearer token-alice",
    "mcp-session-id": transport.sessionId!,
    "mcp-protocol-version": transport.protocolVersion!,
  });
  expect(answer.status).toBe(200);
  const data = /^data: (.*)$/m.exec(answer.text);
  if (!data) throw new Error(`no SSE data line in ${answer.text}`);
  return JSON.parse(data[1]!) as Record<string, unknown>;
}

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = { deeper: value };
  return value;
}

describe("serveMcp and a hostile client", () => {
  it("answers unknown tools, wrong types and unknown properties with toolwright's texts, and keeps serving", async () => {
    const { url, seen } = await startServer();
    const { client } = await connect(url, "Bearer token-alice");

    expect(failure(await client.callTool({ name: "drop_tables", arguments: {} }))).toBe(
      "Tool 'drop_tables' not found. Available tools: add_note, read_notes, whoami, search, call_upstream, wait.",
    );
    expect(failure(await client.callTool({ name: "search", arguments: { query: 5 } }))).toBe(
      "Tool 'search' was called with invalid arguments: query must be string (got number 5). Call the tool again with corrected arguments.",
    );
    expect(failure(await client.callTool({ name: "search", arguments: { filter: "all" } }))).toBe(
      "Tool 'search' was called with invalid arguments: query is required; filter must be object (got string \"all\"). Call the tool again with corrected arguments.",
    );
    expect(failure(await client.callTool({ name: "whoami", arguments: { user: "root" } }))).toBe(
      "Tool 'whoami' was called with invalid arguments: user is not a parameter of this tool (parameters: none). Call the tool again with corrected arguments.",
    );
    expect(failure(await client.callTool({ name: "search" }))).toBe(
      "Tool 'search' was called with invalid arguments: query is required. Call the tool again with corrected arguments.",
    );
    expect(seen.args).toEqual([]);
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });

  it("never lets __proto__ reach a tool: dropped at the top level, refused below it", async () => {
    const { url, seen } = await startServer();
    const { client, transport } = await connect(url, "Bearer token-alice");

    // JSON.parse keeps "__proto__" as an own key; the SDK's request schema drops it at the top level of
    // the arguments, so it can neither set the injected `user` nor change the arguments' prototype.
    expect(await rawCall(url, transport, 50, '{"name":"whoami","arguments":{"__proto__":{"user":"mallory"}}}')).toEqual({
      jsonrpc: "2.0",
      id: 50,
      result: { content: [{ type: "text", text: "you are alice" }] },
    });
    expect(seen.args).toEqual([{ user: "alice" }]);
    expect(Object.getPrototypeOf(seen.args[0])).toBe(Object.prototype);

    // Inside a value, it is toolwright's argument check that refuses it.
    const filter = JSON.parse('{"status":"open","__proto__":{"admin":true}}') as Record<string, unknown>;
    expect(failure(await client.callTool({ name: "search", arguments: { query: "x", filter } }))).toBe(
      "Tool 'search' was called with invalid arguments: filter.__proto__ is an unknown property (\"__proto__\" is never accepted as a property name). Call the tool again with corrected arguments.",
    );
    expect(seen.args).toEqual([{ user: "alice" }]);
    expect(text(await client.callTool({ name: "search", arguments: { query: "x", filter: { status: "open" } } }))).toBe("searched x");
  });

  it("answers arguments nested past the limit with toolwright's text, however deep, instead of a protocol error", async () => {
    const { url, seen } = await startServer();
    const { client, transport } = await connect(url, "Bearer token-alice");
    const tooDeep = "Tool 'search' was called with arguments that nest deeper than 64 levels, the limit for tool arguments. Send one JSON object with the tool's parameters: query, filter.";

    expect(failure(await client.callTool({ name: "search", arguments: { query: "x", filter: nested(100) } }))).toBe(tooDeep);
    // Deeper than JSON.stringify can go: sent as raw text.
    const depth = 100_000;
    expect(await rawCall(url, transport, 60, `{"name":"search","arguments":{"query":"x","filter":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}}`)).toEqual({
      jsonrpc: "2.0",
      id: 60,
      result: { content: [{ type: "text", text: tooDeep }], isError: true },
    });
    expect(failure(await client.callTool({ name: "no_such_tool", arguments: { filter: nested(100) } }))).toBe(
      "Tool 'no_such_tool' not found. Available tools: add_note, read_notes, whoami, search, call_upstream, wait.",
    );
    // Up to the limit is fine.
    expect(text(await client.callTool({ name: "search", arguments: { query: "x", filter: nested(62) as Record<string, unknown> } }))).toBe("searched x");
    expect(seen.args).toHaveLength(1);
  });

  it("answers arguments that are not an object with the SDK's protocol error, and keeps serving", async () => {
    const { url, transport, client } = await startServer().then(async ({ url }) => ({ url, ...(await connect(url, "Bearer token-alice")) }));

    const answer = await rawCall(url, transport, 70, '{"name":"search","arguments":"query=x"}');

    expect(answer.id).toBe(70);
    expect((answer.error as { code: number }).code).toBe(-32603);
    expect(JSON.parse((answer.error as { message: string }).message)).toEqual([
      { expected: "record", code: "invalid_type", path: ["params", "arguments"], message: "Invalid input: expected record, received string" },
    ]);
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });

  it("redacts the session's injected values from a tool's error message", async () => {
    const { url } = await startServer();
    const alice = await connect(url, "Bearer token-alice");
    const bob = await connect(url, "Bearer token-bob");

    expect(failure(await alice.client.callTool({ name: "call_upstream", arguments: {} }))).toBe(
      "Tool 'call_upstream' failed: the upstream refused key [api_key] (Authorization: Bearer [api_key]).",
    );
    expect(failure(await bob.client.callTool({ name: "call_upstream", arguments: {} }))).toBe(
      "Tool 'call_upstream' failed: the upstream refused key [api_key] (Authorization: Bearer [api_key]).",
    );
  });

  it("fails a call that outlives toolTimeoutMs with the timeout text, aborting the tool's signal", async () => {
    const { url, seen } = await startServer({ toolTimeoutMs: 50 });
    const { client } = await connect(url, "Bearer token-alice");

    expect(failure(await client.callTool({ name: "wait", arguments: {} }))).toBe("Tool 'wait' failed: it did not finish within 50 ms.");
    expect(await seen.aborted.promise).toEqual(new Error("tool call timed out"));
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });

  it("aborts the tool's signal when the client cancels the call, and keeps serving", async () => {
    const { url, seen } = await startServer();
    const { client } = await connect(url, "Bearer token-alice");
    const controller = new AbortController();

    const call = client.callTool({ name: "wait", arguments: {} }, undefined, { signal: controller.signal });
    await seen.started.promise;
    controller.abort("the user pressed stop");

    await expect(call).rejects.toThrow("MCP error -32001: the user pressed stop");
    expect(await seen.aborted.promise).toBe("the user pressed stop");
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });
});

// ---------------------------------------------------------------------------------------------
// Lifecycle and configuration.

describe("McpToolServer lifecycle", () => {
  it("counts initialized sessions, and a session the client ends is gone", async () => {
    const { server, url } = await startServer();
    expect(server.sessionCount).toBe(0);

    const alice = await connect(url, "Bearer token-alice");
    expect(server.sessionCount).toBe(1);
    const bob = await connect(url, "Bearer token-bob");
    expect(server.sessionCount).toBe(2);

    const aliceId = alice.transport.sessionId!;
    await alice.transport.terminateSession();
    expect(server.sessionCount).toBe(1);
    expect(await post(url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }), { "mcp-session-id": aliceId })).toEqual({
      status: 404,
      text: `{"jsonrpc":"2.0","error":{"code":-32001,"message":"no session '${aliceId}' (it ended, or this server restarted); initialize a new one."},"id":null}`,
    });
    expect(text(await bob.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are bob");
  });

  it("listens on the IPv6 loopback address at a URL clients can use, and the close listen returns stops it", async () => {
    const seen = newSeen();
    const server = serveMcp({ tools: testTools(seen), stateSchema, session: sessionOf });
    closing.push(() => server.close());
    const { url, close } = await server.listen({ host: "::1", path: "/tools" });
    expect(url).toMatch(/^http:\/\/\[::1\]:\d+\/tools$/);
    const { client } = await connect(url, "Bearer token-bob");
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are bob");

    await close();

    expect(server.sessionCount).toBe(0);
    await expect(fetch(url, { method: "POST", body: initializeBody })).rejects.toThrow("fetch failed");
  });

  it("close() aborts calls in flight, ends the sessions and stops the http server", async () => {
    const seen = newSeen();
    const server = serveMcp({ tools: testTools(seen), stateSchema, session: sessionOf });
    closing.push(() => server.close());
    const { url } = await server.listen();
    const { client } = await connect(url, "Bearer token-alice");
    const call = client.callTool({ name: "wait", arguments: {} });
    const outcome = call.then(() => "answered", (error: Error) => error.message);
    await seen.started.promise;

    await server.close();

    // The call's connection was cut: the client's request fails instead of waiting for an answer.
    expect(await outcome).toBe("fetch failed");
    expect(await seen.aborted.promise).toEqual(new DOMException("This operation was aborted", "AbortError"));
    expect(server.sessionCount).toBe(0);
    await expect(fetch(url, { method: "POST", body: initializeBody })).rejects.toThrow("fetch failed");
    const late = new Client({ name: "late", version: "1.0.0" });
    closing.push(() => late.close());
    await expect(late.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow("fetch failed");
    await server.close(); // a second close is harmless
  });

  it("ends a session idle for sessionIdleMs, refuses sessions past maxSessions with 503, and answers 503 once closed", async () => {
    const server = serveMcp({ tools: testTools(newSeen()), stateSchema, session: sessionOf, sessionIdleMs: 200, maxSessions: 1 });
    closing.push(() => server.close());
    const { url } = await server.listen();
    const alice = await connect(url, "Bearer token-alice");
    const aliceId = alice.transport.sessionId!;

    const second = await post(url, initializeBody, { authorization: "Bearer token-bob", accept: "application/json, text/event-stream" });
    expect(second).toEqual({ status: 503, text: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"the server has 1 sessions open (maxSessions); try again later."},"id":null}` });

    // No request from alice: the sweep ends her session.
    for (const started = Date.now(); server.sessionCount > 0; await new Promise((resolve) => setTimeout(resolve, 50))) {
      if (Date.now() - started > 10_000) throw new Error("the idle session was not ended within 10 s");
    }
    expect((await post(url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }), { "mcp-session-id": aliceId })).status).toBe(404);

    await server.close();
    // handleHttp mounted in another server after close: refused too.
    const mounted = http.createServer((request, response) => void server.handleHttp(request, response));
    closing.push(() => new Promise((resolve) => mounted.close(resolve)));
    await new Promise<void>((resolve) => mounted.listen(0, "127.0.0.1", resolve));
    const response = await post(`http://127.0.0.1:${(mounted.address() as AddressInfo).port}/mcp`, initializeBody, { accept: "application/json, text/event-stream" });
    expect(response).toEqual({ status: 503, text: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"the MCP server was closed."},"id":null}` });
  });

  it("refuses sessionIdleMs and maxSessions that are not whole numbers of at least 1", () => {
    expect(() => serveMcp({ tools: [], sessionIdleMs: 0 })).toThrow(new ConfigurationError("serveMcp", "serveMcp has a sessionIdleMs that is not a whole number of at least 1, got number 0."));
    expect(() => serveMcp({ tools: [], maxSessions: 2.5 })).toThrow(new ConfigurationError("serveMcp", "serveMcp has a maxSessions that is not a whole number of at least 1, got number 2.5."));
  });
});

describe("serveMcp configuration errors", () => {
  function configurationError(make: () => unknown): ConfigurationError {
    try {
      make();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError);
      return error as ConfigurationError;
    }
    throw new Error("expected a ConfigurationError");
  }
  const tools = (): Tool[] => [new Tool({ name: "ping", description: "Ping.", parameters: { type: "object", properties: {} }, function: () => "pong" })];

  it("refuses options that are not an object, and tools that are not an array", () => {
    expect(configurationError(() => serveMcp(undefined as never)).message).toBe("serveMcp(options) needs an options object with tools, got undefined.");
    expect(configurationError(() => serveMcp({} as never)).message).toBe("serveMcp needs tools as an array of Tool, Toolset or objects with @tool methods, got undefined.");
  });

  it("refuses a session that is not a function", () => {
    expect(configurationError(() => serveMcp({ tools: tools(), session: { user: "alice" } as never })).message).toBe(
      "serveMcp has a session that is not a function, got an object; pass (context) => initial state values.",
    );
  });

  it("refuses a toolTimeoutMs that is not a positive, finite number of milliseconds", () => {
    const message = (toolTimeoutMs: unknown) => configurationError(() => serveMcp({ tools: tools(), toolTimeoutMs: toolTimeoutMs as number })).message;
    expect(message(0)).toBe("serveMcp has a toolTimeoutMs that is not a positive number of milliseconds, got number 0.");
    expect(message(-5)).toBe("serveMcp has a toolTimeoutMs that is not a positive number of milliseconds, got number -5.");
    expect(message(Number.NaN)).toBe("serveMcp has a toolTimeoutMs that is not a positive number of milliseconds, got number NaN.");
    // Node would run an infinite timer after 1 ms: every call would time out at once.
    expect(message(Number.POSITIVE_INFINITY)).toBe("serveMcp has a toolTimeoutMs that is not a positive number of milliseconds, got number Infinity.");
    expect(message("1000")).toBe('serveMcp has a toolTimeoutMs that is not a positive number of milliseconds, got string "1000".');
  });

  it("refuses tools that read or write state keys the stateSchema lacks, with the Agent's text", () => {
    const scoped = new Tool({
      name: "scoped",
      description: "Needs a tenant.",
      parameters: { type: "object", properties: { tenant: { type: "string" } }, required: ["tenant"] },
      inputsFromState: { tenant: "tenant" },
      function: () => "ok",
    });
    const writer = new Tool({ name: "writer", description: "Writes.", parameters: { type: "object", properties: {} }, outputsToState: { audit: {} }, function: () => ({}) });
    const chatGenerator = new ScriptedChatGenerator([]);

    const reading = configurationError(() => serveMcp({ tools: [scoped], stateSchema }));
    expect(reading.message).toBe(
      "Tool 'scoped' reads state key 'tenant' through inputsFromState, but the Agent's stateSchema has no such key; add 'tenant' to stateSchema or fix the key. State keys: user, api_key, notes, messages.",
    );
    expect(reading.message).toBe(configurationError(() => new Agent({ chatGenerator, tools: [scoped], stateSchema })).message);
    const writing = configurationError(() => serveMcp({ tools: [writer], stateSchema }));
    expect(writing.message).toBe(
      "Tool 'writer' writes state key 'audit' through outputsToState, but the Agent's stateSchema has no such key; add 'audit' to stateSchema or fix the key. State keys: user, api_key, notes, messages.",
    );
    expect(writing.message).toBe(configurationError(() => new Agent({ chatGenerator, tools: [writer], stateSchema })).message);
  });
});
