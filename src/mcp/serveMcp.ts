import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ToolRunner } from "../agent/toolRunner";
import { ConfigurationError } from "../errors";
import type { StateInitialValues, StateSchema } from "../state/stateSchema";
import type { ToolSource } from "../tools/resolveTools";
import { describeKind } from "../util/describeValue";
import { mcpSdk } from "./mcpSdk";
import { McpSession } from "./mcpSession";

/** What `session` is told about a new MCP session. */
export interface McpSessionContext {
  /** The session's id: the `mcp-session-id` of Streamable HTTP, or `"stdio"`. */
  readonly sessionId: string;
  readonly transport: "stdio" | "streamable-http";
  /** The HTTP request that opened the session (its headers carry the caller's credentials); undefined over stdio. */
  readonly request: http.IncomingMessage | undefined;
}

/** Options of `serveMcp`. */
export interface ServeMcpOptions<S extends StateSchema = {}> {
  /** The server's name and version, sent to clients. Default "toolwright" and "0.1.0". */
  name?: string;
  version?: string;
  /** Told to clients at initialization: how to use the tools. */
  instructions?: string;
  /** What an Agent takes: objects with `@tool` methods, `defineTool` results, `Tool`s, `Toolset`s. */
  tools: readonly ToolSource[];
  /** The state each session gets, as for an Agent. */
  stateSchema?: S;
  /**
   * A new session's initial state (what fills `State` and `inputsFromState` parameters), e.g. from
   * the HTTP request's credentials. Throw to refuse the session: the client gets 403 and the
   * error's message.
   */
  session?: (context: McpSessionContext) => StateInitialValues<S> | Promise<StateInitialValues<S>>;
  /** A call that takes longer fails with a timeout message. Default: no limit. */
  toolTimeoutMs?: number;
  /** A Streamable HTTP session with no request for this long is ended (its State dropped). Default 30 minutes. */
  sessionIdleMs?: number;
  /** At most this many Streamable HTTP sessions at once; an initialize beyond it gets 503. Default 10000. */
  maxSessions?: number;
}

/** Where `listen` serves. */
export interface McpListenOptions {
  /** Default 0: any free port (see the returned url). */
  port?: number;
  /**
   * Default 127.0.0.1. On a loopback address (127.0.0.1, localhost, ::1) only requests whose Host
   * header names one are answered: a web page whose own host name was made to resolve to 127.0.0.1
   * (DNS rebinding) is refused with 403.
   */
  host?: string;
  /** Default /mcp. */
  path?: string;
}

const maxBodyBytes = 4 * 1024 * 1024;

/**
 * Serves tools over MCP, with the schemas the model would see: parameters filled from State stay
 * out of them, and a client can no more set one than a model can. Each session gets its own State.
 *
 * @example
 * const server = serveMcp({ tools: [new SupportTools(store)], stateSchema, session: ({ request }) => ({ customer_id: customerOf(request) }) });
 * await server.connectStdio();                  // as a process an MCP host launches
 * const { url } = await server.listen({ port: 3001 }); // or over Streamable HTTP
 */
export function serveMcp<S extends StateSchema = {}>(options: ServeMcpOptions<S>): McpToolServer<S> {
  return new McpToolServer(options);
}

export class McpToolServer<S extends StateSchema = {}> {
  readonly #options: ServeMcpOptions<S>;
  readonly #runner: ToolRunner<S>;
  readonly #listing: ReadonlyArray<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  readonly #sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server; session: McpSession<S>; lastUsed: number; owner: http.Server | undefined }>();
  readonly #sessionIdleMs: number;
  readonly #maxSessions: number;
  #sweeper: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #servers = new Set<Server>();
  readonly #httpServers = new Set<http.Server>();

  constructor(options: ServeMcpOptions<S>) {
    if (typeof options !== "object" || options === null) throw new ConfigurationError("serveMcp", `serveMcp(options) needs an options object with tools, got ${describeKind(options)}.`);
    if (options.session !== undefined && typeof options.session !== "function") {
      throw new ConfigurationError("serveMcp", `serveMcp has a session that is not a function, got ${describeKind(options.session)}; pass (context) => initial state values.`);
    }
    this.#sessionIdleMs = wholePositive(options.sessionIdleMs, 30 * 60_000, "sessionIdleMs");
    this.#maxSessions = wholePositive(options.maxSessions, 10_000, "maxSessions");
    this.#options = options;
    this.#runner = new ToolRunner({ tools: options.tools, ...(options.stateSchema !== undefined && { stateSchema: options.stateSchema }), ...(options.toolTimeoutMs !== undefined && { toolTimeoutMs: options.toolTimeoutMs }), name: "serveMcp" });
    this.#listing = this.#runner.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters as Record<string, unknown> }));
  }

  /** The number of open Streamable HTTP sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Serves one session over this process's stdin and stdout: the form an MCP host (an IDE, a desktop app) launches. */
  async connectStdio(): Promise<void> {
    const session = await this.#newSession({ sessionId: "stdio", transport: "stdio", request: undefined });
    const { StdioServerTransport } = mcpSdk("stdioServer", "serveMcp");
    await this.#server(session).connect(new StdioServerTransport());
  }

  /**
   * Handles one request of the Streamable HTTP transport: mount it at your MCP path (Node's http,
   * Express, …). `body` is the parsed JSON body when your framework already read it. Checking the
   * Host or Origin header against DNS rebinding is then your server's part (`listen` does it on a
   * loopback address).
   */
  handleHttp(request: http.IncomingMessage, response: http.ServerResponse, body?: unknown): Promise<void> {
    return this.#handle(request, response, body, undefined);
  }

  // `owner`: the server `listen` started that took the request, whose close ends the sessions it opened.
  async #handle(request: http.IncomingMessage, response: http.ServerResponse, body: unknown, owner: http.Server | undefined): Promise<void> {
    const { isInitializeRequest } = mcpSdk("types", "serveMcp");
    if (this.#closed) return sendError(response, 503, -32000, "the MCP server was closed.");
    const parsed = body ?? (request.method === "POST" ? await readJson(request) : undefined);
    if (parsed === tooLarge) {
      // The rest of the body is not read: the connection cannot carry another request.
      response.setHeader("connection", "close");
      return sendError(response, 413, -32000, `the body is over ${maxBodyBytes} bytes, the limit.`);
    }
    if (parsed instanceof Error) return sendError(response, 400, -32700, `the body is not JSON: ${parsed.message}`);
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const open = this.#sessions.get(sessionId);
      if (!open) return sendError(response, 404, -32001, `no session '${sessionId}' (it ended, or this server restarted); initialize a new one.`);
      open.lastUsed = Date.now();
      return open.transport.handleRequest(request, response, parsed);
    }
    if (request.method !== "POST" || !isInitializeRequest(parsed)) {
      return sendError(response, 400, -32000, "no mcp-session-id header: send an initialize request first, then the session id it answers with.");
    }
    if (this.#sessions.size >= this.#maxSessions) {
      return sendError(response, 503, -32000, `the server has ${this.#maxSessions} sessions open (maxSessions); try again later.`);
    }
    const id = randomUUID();
    let session: McpSession<S>;
    try {
      session = await this.#newSession({ sessionId: id, transport: "streamable-http", request });
    } catch (error) {
      return sendError(response, 403, -32001, `the session was refused: ${(error as Error).message}`);
    }
    const { StreamableHTTPServerTransport } = mcpSdk("streamableHttpServer", "serveMcp");
    let initialized = false;
    // A session is kept once the transport accepted its initialize request: one refused (406 for a
    // missing Accept, 415, …) would otherwise stay open, with its server and State, for good.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        initialized = true;
        this.#sessions.set(id, { transport, server, session, lastUsed: Date.now(), owner });
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

  /**
   * Starts an HTTP server that serves `handleHttp` at `path`; resolves with its URL and how to stop
   * it (which ends the sessions opened through it).
   */
  async listen(options: McpListenOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
    const { port = 0, host = "127.0.0.1", path = "/mcp" } = options;
    const loopback = loopbackHosts.has(host);
    const httpServer = http.createServer((request, response) => {
      if (loopback && !loopbackHosts.has(hostnameOf(request.headers.host))) {
        return sendError(response, 403, -32000, "the Host header does not name this server: on a loopback address it answers requests to localhost, 127.0.0.1 or [::1] only.");
      }
      if (new URL(request.url ?? "/", "http://host").pathname !== path) return sendError(response, 404, -32000, `MCP is served at ${path}.`);
      this.#handle(request, response, undefined, httpServer).catch((error: unknown) => {
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
    return new McpSession(this.#runner, this.#runner.newState(initial as StateInitialValues<S>), context.sessionId);
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

const loopbackHosts: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

// The host name of a Host header ("[::1]" for IPv6), or "" when there is none or it is not one.
function hostnameOf(header: string | undefined): string {
  try {
    return header ? new URL(`http://${header}`).hostname : "";
  } catch {
    return "";
  }
}

const tooLarge = Symbol("tooLarge");

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  if (Number(request.headers["content-length"]) > maxBodyBytes) return tooLarge;
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return tooLarge;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (error) {
    return error as Error;
  }
}

function sendError(response: http.ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
