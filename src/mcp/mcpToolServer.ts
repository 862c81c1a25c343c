import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { ToolRunner } from "../agent/toolRunner";
import { ConfigurationError } from "../errors";
import type { StateInitialValues, StateSchema } from "../state/stateSchema";
import { describeKind } from "../util/describeValue";
import { maxBodyBytes, readJson, sendError, tooLarge } from "./httpReplies";
import { McpCors } from "./mcpCors";
import { principalOf, type RequestPrincipal } from "./mcpPrincipal";
import { mcpSdk } from "./mcpSdk";
import { McpSession } from "./mcpSession";
import { mcpToolListing } from "./mcpToolListing";
import { McpToolOutput } from "./mcpToolOutput";
import type { McpListenOptions, McpSessionContext, ServeMcpOptions } from "./serveMcpOptions";

interface OpenSession<S extends StateSchema> {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: Server;
  readonly session: McpSession<S>;
  /** Who opened it (`RequestPrincipal.key`): every later request must come from the same. */
  readonly principal: string;
  lastUsed: number;
  /** The server `listen` started that took the initialize, whose close ends the session. */
  readonly owner: http.Server | undefined;
}

/** The server `serveMcp` returns: serve it over stdio, over Streamable HTTP with `listen`, or mount `handleHttp`. */
export class McpToolServer<S extends StateSchema = {}> {
  readonly #options: ServeMcpOptions<S>;
  readonly #runner: ToolRunner<S>;
  readonly #listing: readonly McpTool[];
  readonly #outputs: ReadonlyMap<string, McpToolOutput>;
  readonly #cors: McpCors | undefined;
  readonly #sessions = new Map<string, OpenSession<S>>();
  readonly #sessionIdleMs: number;
  readonly #maxSessions: number;
  // Sessions counted against maxSessions while their initialize is still being served: the slot is
  // taken before the first await, so concurrent initialize requests cannot all pass the check.
  #reserved = 0;
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #servers = new Set<Server>();
  readonly #httpServers = new Set<http.Server>();

  constructor(options: ServeMcpOptions<S>) {
    if (typeof options !== "object" || options === null) throw new ConfigurationError("serveMcp", `serveMcp(options) needs an options object with tools, got ${describeKind(options)}.`);
    for (const name of ["session", "authenticate"] as const) {
      if (options[name] !== undefined && typeof options[name] !== "function") {
        const fix = name === "session" ? "(context) => initial state values" : "(request) => the id of the user or client who sent it";
        throw new ConfigurationError("serveMcp", `serveMcp has ${name === "session" ? "a" : "an"} ${name} that is not a function, got ${describeKind(options[name])}; pass ${fix}.`);
      }
    }
    this.#sessionIdleMs = wholePositive(options.sessionIdleMs, 30 * 60_000, "sessionIdleMs");
    this.#maxSessions = wholePositive(options.maxSessions, 10_000, "maxSessions");
    this.#cors = options.cors === undefined ? undefined : new McpCors(options.cors);
    this.#options = options;
    this.#runner = new ToolRunner({ tools: options.tools, ...(options.stateSchema !== undefined && { stateSchema: options.stateSchema }), ...(options.toolTimeoutMs !== undefined && { toolTimeoutMs: options.toolTimeoutMs }), name: "serveMcp" });
    const outputs = new Map<string, McpToolOutput>();
    for (const tool of this.#runner.tools) {
      const output = McpToolOutput.of(tool);
      if (output) outputs.set(tool.name, output);
    }
    this.#outputs = outputs;
    this.#listing = this.#runner.tools.map((tool) => mcpToolListing(tool, outputs.get(tool.name)));
  }

  /** The number of open Streamable HTTP sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Serves one session over this process's stdin and stdout: the form an MCP host (an IDE, a desktop app) launches. */
  async connectStdio(): Promise<void> {
    const session = await this.#newSession({ sessionId: "stdio", transport: "stdio", request: undefined, principal: undefined });
    const { StdioServerTransport } = mcpSdk("stdioServer", "serveMcp");
    await this.#server(session).connect(new StdioServerTransport());
  }

  /**
   * Handles one request of the Streamable HTTP transport: mount it at your MCP path (Node's http,
   * Express, …). `body` is the parsed JSON body when your framework already read it. Checking the
   * Host or Origin header against DNS rebinding is then your server's part (`listen` does it on a
   * loopback address; the `cors` option checks Origin wherever it is mounted).
   */
  handleHttp(request: http.IncomingMessage, response: http.ServerResponse, body?: unknown): Promise<void> {
    return this.#serve(request, response, body, undefined);
  }

  async #serve(request: http.IncomingMessage, response: http.ServerResponse, body: unknown, owner: http.Server | undefined): Promise<void> {
    if (this.#cors?.apply(request, response)) return;
    return this.#handle(request, response, body, owner);
  }

  async #handle(request: http.IncomingMessage, response: http.ServerResponse, body: unknown, owner: http.Server | undefined): Promise<void> {
    const { isInitializeRequest, JSONRPCMessageSchema } = mcpSdk("types", "serveMcp");
    if (this.#closed) return sendError(response, 503, -32000, "the MCP server was closed.");
    const parsed = body ?? (request.method === "POST" ? await readJson(request) : undefined);
    if (parsed === tooLarge) {
      // The rest of the body is not read: the connection cannot carry another request.
      response.setHeader("connection", "close");
      return sendError(response, 413, -32000, `the body is over ${maxBodyBytes} bytes, the limit.`);
    }
    if (parsed instanceof Error) return sendError(response, 400, -32700, `the body is not JSON: ${parsed.message}`);
    if (parsed !== undefined) {
      const messages = Array.isArray(parsed) ? parsed : [parsed];
      const invalid = messages.length === 0 ? "an empty batch" : messages.some((message) => !JSONRPCMessageSchema.safeParse(message).success) ? "not a JSON-RPC 2.0 message" : undefined;
      if (invalid) return sendError(response, 400, -32600, `Invalid Request: the body is ${invalid}.`);
    }
    const principal = await this.#principal(request, response);
    if (!principal) return;
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const open = this.#sessions.get(sessionId);
      if (!open) return sendError(response, 404, -32001, `no session '${sessionId}' (it ended, or this server restarted); initialize a new one.`);
      if (open.principal !== principal.key) {
        return sendError(response, 403, -32001, `session '${sessionId}' was opened with other credentials; send the credentials that opened it, or initialize a session of your own.`);
      }
      if (Array.isArray(parsed) && batchesRemoved(request.headers["mcp-protocol-version"])) {
        return sendError(response, 400, -32600, "Invalid Request: protocol version 2025-06-18 and later take one JSON-RPC message per request, not a batch (JSON array).");
      }
      open.lastUsed = Date.now();
      return open.transport.handleRequest(request, response, parsed);
    }
    if (request.method !== "POST" || !isInitializeRequest(parsed)) {
      return sendError(response, 400, -32000, "no mcp-session-id header: send an initialize request first, then the session id it answers with.");
    }
    if (this.#sessions.size + this.#reserved >= this.#maxSessions) {
      return sendError(response, 503, -32000, `the server has ${this.#maxSessions} sessions open (maxSessions); try again later.`);
    }
    this.#reserved++;
    let reserved = true;
    const release = () => {
      if (reserved) this.#reserved--;
      reserved = false;
    };
    try {
      await this.#open(request, response, parsed, principal, owner, release);
    } finally {
      release();
    }
  }

  // Serves an initialize request; `release` gives back the slot it reserved, once the session is counted in #sessions or refused.
  async #open(request: http.IncomingMessage, response: http.ServerResponse, parsed: unknown, principal: RequestPrincipal, owner: http.Server | undefined, release: () => void): Promise<void> {
    const id = randomUUID();
    let session: McpSession<S>;
    try {
      session = await this.#newSession({ sessionId: id, transport: "streamable-http", request, principal: principal.principal });
    } catch (error) {
      return sendError(response, 403, -32001, `the session was refused: ${(error as Error).message}`);
    }
    if (this.#closed) return sendError(response, 503, -32000, "the MCP server was closed.");
    const { StreamableHTTPServerTransport } = mcpSdk("streamableHttpServer", "serveMcp");
    let initialized = false;
    // A session is kept once the transport accepted its initialize request: one refused (406 for a
    // missing Accept, 415, …) would otherwise stay open, with its server and State, for good.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        initialized = true;
        this.#sessions.set(id, { transport, server, session, principal: principal.key, lastUsed: Date.now(), owner });
        release();
        this.#sweeper ??= setInterval(() => this.#endIdleSessions(), Math.min(this.#sessionIdleMs, 60_000)).unref();
      },
    });
    const server = this.#server(session);
    transport.onclose = () => {
      this.#sessions.delete(id);
      this.#servers.delete(server);
    };
    await server.connect(transport);
    try {
      await transport.handleRequest(request, response, parsed);
    } finally {
      if (!initialized) await server.close();
    }
  }

  // Who sent the request; undefined when it was refused (the answer is sent).
  async #principal(request: http.IncomingMessage, response: http.ServerResponse): Promise<RequestPrincipal | undefined> {
    const found = await principalOf(request, this.#options.authenticate);
    if (found.ok) return found.principal;
    if (found.status === 401) sendError(response, 401, -32001, found.message, { "www-authenticate": "Bearer" });
    else sendError(response, 500, -32603, found.message);
    return undefined;
  }

  /**
   * Starts an HTTP server that serves `handleHttp` at `path`; resolves with its URL and how to stop
   * it (which ends the sessions opened through it).
   */
  async listen(options: McpListenOptions = {}): Promise<{
    /** Where MCP is served: `http://<host>:<port><path>`. */
    url: string;
    /** Stops this HTTP server and ends its sessions. */
    close(): Promise<void>;
  }> {
    const { port = 0, host = "127.0.0.1", path = "/mcp" } = options;
    const loopback = loopbackHosts.has(host);
    const httpServer = http.createServer((request, response) => {
      if (loopback && !loopbackHosts.has(hostnameOf(request.headers.host))) {
        return sendError(response, 403, -32000, "the Host header does not name this server: on a loopback address it answers requests to localhost, 127.0.0.1 or [::1] only.");
      }
      if (new URL(request.url ?? "/", "http://host").pathname !== path) return sendError(response, 404, -32000, `MCP is served at ${path}.`);
      this.#serve(request, response, undefined, httpServer).catch((error: unknown) => {
        if (!response.headersSent) sendError(response, 500, -32603, (error as Error).message);
        else response.end();
      });
    });
    this.#httpServers.add(httpServer);
    await new Promise<void>((resolve, reject) => httpServer.once("error", reject).listen(port, host, () => resolve()));
    const address = httpServer.address() as { port: number };
    return {
      url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}${path}`,
      close: () => this.#closeHttp(httpServer),
    };
  }

  /** Ends every session and stops the servers `listen` started; later requests get 503. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    await Promise.all([...this.#httpServers].map((server) => this.#closeHttp(server)));
    await Promise.all([...this.#servers].map((server) => server.close()));
    this.#sessions.clear();
  }

  async #closeHttp(httpServer: http.Server): Promise<void> {
    this.#httpServers.delete(httpServer);
    await Promise.all([...this.#sessions.values()].filter(({ owner }) => owner === httpServer).map(({ server }) => server.close()));
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  }

  // Ends the sessions that had no request for sessionIdleMs (a client that went away without ending its session).
  #endIdleSessions(): void {
    const cutoff = Date.now() - this.#sessionIdleMs;
    for (const { server, lastUsed } of this.#sessions.values()) if (lastUsed < cutoff) void server.close().catch(() => undefined);
  }

  async #newSession(context: McpSessionContext): Promise<McpSession<S>> {
    const initial = (await this.#options.session?.(context)) ?? {};
    return new McpSession(this.#runner, this.#runner.newState(initial as StateInitialValues<S>), context.sessionId, this.#outputs);
  }

  #server(session: McpSession<S>): Server {
    const { Server: McpServer } = mcpSdk("server", "serveMcp");
    const { ListToolsRequestSchema, CallToolRequestSchema } = mcpSdk("types", "serveMcp");
    const server = new McpServer(
      { name: this.#options.name ?? "toolwright", version: this.#options.version ?? "0.1.0" },
      { capabilities: { tools: {} }, ...(this.#options.instructions !== undefined && { instructions: this.#options.instructions }) },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...this.#listing] }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => session.call(request.params.name, request.params.arguments, extra.signal));
    this.#servers.add(server);
    return server;
  }
}

function wholePositive(value: unknown, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 1) return value;
  throw new ConfigurationError("serveMcp", `serveMcp has a ${option} that is not a whole number of at least 1, got ${describeKind(value)}.`);
}

// JSON-RPC batches were removed from MCP in 2025-06-18; a request without the version header is of 2025-03-26 (the spec's rule).
function batchesRemoved(version: string | string[] | undefined): boolean {
  return typeof version === "string" && version >= "2025-06-18";
}

const loopbackHosts: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

// The host name of a Host header ("[::1]" for IPv6), or "" when there is none or it is not one.
function hostnameOf(header: string | undefined): string {
  try {
    return header ? new URL(`http://${header}`).hostname : "";
  } catch {
    return "";
  }
}
