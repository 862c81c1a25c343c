// serveMcp's sessions under load and under attack, with the MCP SDK's own client and raw requests:
// maxSessions under concurrent initialize requests, and credentials checked on every request.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Tool } from "toolwright";
import { type McpSessionContext, type ServeMcpOptions, serveMcp } from "toolwright/mcp";
import { z } from "zod";
import { closeAll, closing, connectClient, errorBody, initializeBody, raw, rawSession, sseMessages, until } from "../helpers/mcpHttpTesting";

afterEach(closeAll);

const stateSchema = { user: { type: z.string() } };

const whoami = new Tool({
  name: "whoami",
  description: "Say who the session is for.",
  parameters: z.object({ user: z.string() }),
  inputsFromState: { user: "user" },
  function: ({ user }) => `you are ${user}`,
});

const users: Readonly<Record<string, string>> = { "Bearer token-alice": "alice", "Bearer token-alice-refreshed": "alice", "Bearer token-bob": "bob" };

/** The user a request's bearer token belongs to; other tokens are refused. */
function userOf(authorization: string | undefined): string {
  const user = authorization !== undefined && Object.hasOwn(users, authorization) ? users[authorization] : undefined;
  if (user === undefined) throw new Error("unknown bearer token");
  return user;
}

async function start(options: Partial<ServeMcpOptions<typeof stateSchema>> = {}) {
  const server = serveMcp({ tools: [whoami], stateSchema, session: ({ request }: McpSessionContext) => ({ user: userOf(request?.headers.authorization) }), ...options });
  closing.push(() => server.close());
  const { url } = await server.listen();
  return { server, url };
}

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

const listTools = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });

describe("McpToolServer maxSessions", () => {
  it("opens exactly maxSessions of 30 concurrent SDK clients and refuses the other 25 with 503", async () => {
    // Every session function waits until all 30 initialize requests have arrived, as one that reads
    // a database may: the cap must hold while sessions are being set up, not only once they are.
    let arrived = 0;
    let allArrived!: () => void;
    const gate = new Promise<void>((resolve) => (allArrived = resolve));
    const server = serveMcp({
      tools: [whoami],
      stateSchema,
      maxSessions: 5,
      session: async ({ request }) => {
        await gate;
        return { user: userOf(request?.headers.authorization) };
      },
    });
    closing.push(() => server.close());
    const httpServer = http.createServer((request, response) => {
      if (request.headers["mcp-session-id"] === undefined && ++arrived === 30) allArrived();
      void server.handleHttp(request, response);
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => httpServer.close(resolve)));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;

    const attempts = await Promise.allSettled(
      Array.from({ length: 30 }, async () => {
        const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer token-alice" } } });
        const client = new Client({ name: "crowd", version: "1.0.0" });
        closing.push(() => client.close());
        await client.connect(transport);
        return { client, transport };
      }),
    );

    const opened = attempts.filter((a) => a.status === "fulfilled");
    const refused = attempts.filter((a): a is PromiseRejectedResult => a.status === "rejected").map((a) => a.reason as Error & { code?: number });
    expect(opened).toHaveLength(5);
    expect(server.sessionCount).toBe(5);
    expect(refused).toHaveLength(25);
    for (const error of refused) {
      expect(error.code).toBe(503);
      expect(error.message).toBe(`Streamable HTTP error: Error POSTing to endpoint: ${errorBody(-32000, "the server has 5 sessions open (maxSessions); try again later.")}`);
    }
    // The five that opened work.
    for (const attempt of opened) expect(text(await attempt.value.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });

  it("gives the slot of a session the client ended, or that idled out, to the next client", async () => {
    const { server, url } = await start({ maxSessions: 2, sessionIdleMs: 300 });
    const alice = await connectClient(url, { Authorization: "Bearer token-alice" });
    await connectClient(url, { Authorization: "Bearer token-bob" });
    await expect(connectClient(url, { Authorization: "Bearer token-bob" })).rejects.toMatchObject({ code: 503 });

    await alice.transport.terminateSession();
    expect(server.sessionCount).toBe(1);
    const carol = await connectClient(url, { Authorization: "Bearer token-alice" });
    expect(text(await carol.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
    await expect(connectClient(url, { Authorization: "Bearer token-bob" })).rejects.toMatchObject({ code: 503 });

    // No more requests: both sessions idle out, and their slots are free again.
    await until("the idle sessions' end", () => server.sessionCount === 0);
    await connectClient(url, { Authorization: "Bearer token-bob" });
    const dave = await connectClient(url, { Authorization: "Bearer token-alice" });
    expect(text(await dave.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
    expect(server.sessionCount).toBe(2);
  });

  it("frees the slot of an initialize the session function refuses, or the transport refuses", async () => {
    const { server, url } = await start({ maxSessions: 1 });

    expect((await raw(url, { body: initializeBody, headers: { authorization: "Bearer stolen" } })).status).toBe(403);
    expect((await raw(url, { body: initializeBody, headers: { authorization: "Bearer token-bob", accept: "application/json" } })).status).toBe(406);

    const { client } = await connectClient(url, { Authorization: "Bearer token-bob" });
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are bob");
    expect(server.sessionCount).toBe(1);
  });
});

describe("McpToolServer credentials, without authenticate", () => {
  it("refuses a request that names a session with only its id, or with another Authorization header: 403", async () => {
    const { url } = await start();
    const { client, transport } = await connectClient(url, { Authorization: "Bearer token-alice" });
    const session = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": transport.protocolVersion! };
    const refused = { status: 403, headers: {}, text: errorBody(-32001, `session '${transport.sessionId}' was opened with other credentials; send the credentials that opened it, or initialize a session of your own.`) };

    expect(await raw(url, { body: listTools, headers: session })).toEqual(refused);
    expect(await raw(url, { body: listTools, headers: { ...session, authorization: "Bearer token-bob" } })).toEqual(refused);
    expect(await raw(url, { method: "GET", headers: { ...session, authorization: "Bearer token-bob", accept: "text/event-stream" } })).toEqual(refused);
    expect(await raw(url, { method: "DELETE", headers: { ...session, authorization: "Bearer token-bob" } })).toEqual(refused);

    // Her own credentials work, and the session bob tried to end is still hers.
    const answer = await raw(url, { body: listTools, headers: { ...session, authorization: "Bearer token-alice" } });
    expect(answer.status).toBe(200);
    expect(sseMessages(answer.text)).toEqual([{ jsonrpc: "2.0", id: 2, result: { tools: [expect.objectContaining({ name: "whoami" })] } }]);
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });

  it("refuses the SDK client of another user given a stolen session id", async () => {
    const { url } = await start();
    const alice = await connectClient(url, { Authorization: "Bearer token-alice" });

    const transport = new StreamableHTTPClientTransport(new URL(url), { sessionId: alice.transport.sessionId!, requestInit: { headers: { Authorization: "Bearer token-bob" } } });
    const mallory = new Client({ name: "mallory", version: "1.0.0" });
    closing.push(() => mallory.close());

    // Given a session id, the SDK's client skips initialize (it resumes the session): its first call is refused.
    await mallory.connect(transport);
    await expect(mallory.callTool({ name: "whoami", arguments: {} })).rejects.toMatchObject({
      code: 403,
      message: `Streamable HTTP error: Error POSTing to endpoint: ${errorBody(-32001, `session '${alice.transport.sessionId}' was opened with other credentials; send the credentials that opened it, or initialize a session of your own.`)}`,
    });
    expect(text(await alice.client.callTool({ name: "whoami", arguments: {} }))).toBe("you are alice");
  });
});

describe("McpToolServer credentials, with authenticate", () => {
  const authenticate = (request: { headers: { authorization?: string } }) => userOf(request.headers.authorization);

  it("refuses a request whose credentials authenticate rejects with 401, the initialize included", async () => {
    const { server, url } = await start({ authenticate, session: ({ principal }) => ({ user: principal! }) });
    const { transport } = await connectClient(url, { Authorization: "Bearer token-alice" });
    const unauthorized = { status: 401, headers: { "www-authenticate": "Bearer" }, text: errorBody(-32001, "the request was refused: unknown bearer token") };

    expect(await raw(url, { body: initializeBody, read: ["www-authenticate"] })).toEqual(unauthorized);
    // The session id alone is no credential.
    expect(await raw(url, { body: listTools, headers: { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-06-18" }, read: ["www-authenticate"] })).toEqual(unauthorized);
    expect(server.sessionCount).toBe(1);
  });

  it("serves a session to every credential of the principal that opened it (a refreshed token), and refuses another principal's", async () => {
    const seen: McpSessionContext[] = [];
    const { url } = await start({
      authenticate,
      session: (context) => {
        seen.push(context);
        return { user: context.principal! };
      },
    });
    const { transport } = await connectClient(url, { Authorization: "Bearer token-alice" });
    expect(seen.map(({ principal, transport }) => ({ principal, transport }))).toEqual([{ principal: "alice", transport: "streamable-http" }]);
    const call = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "whoami", arguments: {} } });
    const session = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-06-18" };

    const refreshed = await raw(url, { body: call, headers: { ...session, authorization: "Bearer token-alice-refreshed" } });
    expect(sseMessages(refreshed.text)).toEqual([{ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "you are alice" }] } }]);
    expect(await raw(url, { body: call, headers: { ...session, authorization: "Bearer token-bob" } })).toEqual({
      status: 403,
      headers: {},
      text: errorBody(-32001, `session '${transport.sessionId}' was opened with other credentials; send the credentials that opened it, or initialize a session of your own.`),
    });
  });

  it("answers 500 when authenticate returns something other than a principal id", async () => {
    const { server, url } = await start({ authenticate: (() => 42) as never });

    expect(await raw(url, { body: initializeBody, headers: { authorization: "Bearer token-alice" } })).toEqual({
      status: 500,
      headers: {},
      text: errorBody(-32603, "serveMcp's authenticate returned number 42, not the id of who sent the request (a non-empty string)."),
    });
    expect(server.sessionCount).toBe(0);
  });

  it("refuses an authenticate that is not a function", () => {
    expect(() => serveMcp({ tools: [whoami], stateSchema, authenticate: "alice" as never })).toThrow(
      "serveMcp has an authenticate that is not a function, got string \"alice\"; pass (request) => the id of the user or client who sent it.",
    );
  });

  it("keeps a raw client's session to its own credentials too", async () => {
    const { url } = await start({ authenticate, session: ({ principal }) => ({ user: principal! }) });
    const id = await rawSession(url, { authorization: "Bearer token-bob" });
    const call = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "whoami", arguments: {} } });

    const answer = await raw(url, { body: call, headers: { authorization: "Bearer token-bob", "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" } });
    expect(sseMessages(answer.text)).toEqual([{ jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "you are bob" }] } }]);
    expect((await raw(url, { body: call, headers: { authorization: "Bearer token-alice", "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" } })).status).toBe(403);
  });
});
