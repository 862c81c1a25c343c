import { randomUUID } from "node:crypto";
import * as http from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { checkToolStateKeys } from "../agent/validateAgentOptions";
import { ConfigurationError } from "../errors";
import { State } from "../state/state";
import { normalizeStateSchema, type StateInitialValues, type StateSchema } from "../state/stateSchema";
import { resolveTools, type ToolSource } from "../tools/resolveTools";
import type { Tool } from "../tools/tool";
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
}

/** Where `listen` serves. */
export interface McpListenOptions {
  /** Default 0: any free port (see the returned url). */
  port?: number;
  /** Default 127.0.0.1. */
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
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #listing: ReadonlyArray<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  readonly #sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server; session: McpSession }>();
  readonly #servers = new Set<Server>();
  readonly #httpServers = new Set<http.Server>();

  constructor(options: ServeMcpOptions<S>) {
    if (typeof options !== "object" || options === null) throw new ConfigurationError("serveMcp", `serveMcp(options) needs an options object with tools, got ${describeKind(options)}.`);
    if (options.session !== undefined && typeof options.session !== "function") {
      throw new ConfigurationError("serveMcp", `serveMcp has a session that is not a function, got ${describeKind(options.session)}; pass (context) => initial state values.`);
    }
    if (options.toolTimeoutMs !== undefined && (typeof options.toolTimeoutMs !== "number" || !(options.toolTimeoutMs > 0))) {
      throw new ConfigurationError("serveMcp", `serveMcp has a toolTimeoutMs that is not a positive number of milliseconds, got ${describeKind(options.toolTimeoutMs)}.`);
    }
    this.#options = options;
    this.#tools = resolveTools(options.tools, "serveMcp");
    checkToolStateKeys(this.#tools.values(), normalizeStateSchema(options.stateSchema));
    this.#listing = [...this.#tools.values()].map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters as Record<string, unknown> }));
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
   * Express, …). `body` is the parsed JSON body when your framework already read it.
   */
  async handleHttp(request: http.IncomingMessage, response: http.ServerResponse, body?: unknown): Promise<void> {
    const { isInitializeRequest } = mcpSdk("types", "serveMcp");
    const parsed = body ?? (request.method === "POST" ? await readJson(request) : undefined);
    if (parsed instanceof Error) return sendError(response, 400, -32700, `the body is not JSON: ${parsed.message}`);
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const open = this.#sessions.get(sessionId);
      if (!open) return sendError(response, 404, -32001, `no session '${sessionId}' (it ended, or this server restarted); initialize a new one.`);
      return open.transport.handleRequest(request, response, parsed);
    }
    if (request.method !== "POST" || !isInitializeRequest(parsed)) {
      return sendError(response, 400, -32000, "no mcp-session-id header: send an initialize request first, then the session id it answers with.");
    }
    const id = randomUUID();
    let session: McpSession;
    try {
      session = await this.#newSession({ sessionId: id, transport: "streamable-http", request });
    } catch (error) {
      return sendError(response, 403, -32001, `the session was refused: ${(error as Error).message}`);
    }
    const { StreamableHTTPServerTransport } = mcpSdk("streamableHttpServer", "serveMcp");
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const server = this.#server(session);
    transport.onclose = () => {
      this.#sessions.delete(id);
      this.#servers.delete(server);
    };
    await server.connect(transport);
    this.#sessions.set(id, { transport, server, session });
    await transport.handleRequest(request, response, parsed);
  }

  /** Starts an HTTP server that serves `handleHttp` at `path`; resolves with its URL and how to stop it. */
  async listen(options: McpListenOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
    const { port = 0, host = "127.0.0.1", path = "/mcp" } = options;
    const httpServer = http.createServer((request, response) => {
      if (new URL(request.url ?? "/", "http://host").pathname !== path) return sendError(response, 404, -32000, `MCP is served at ${path}.`);
      this.handleHttp(request, response).catch((error: unknown) => {
        if (!response.headersSent) sendError(response, 500, -32603, (error as Error).message);
        else response.end();
      });
    });
    this.#httpServers.add(httpServer);
    await new Promise<void>((resolve, reject) => httpServer.once("error", reject).listen(port, host, () => resolve()));
    const address = httpServer.address() as { port: number };
    return {
      url: `http://${host}:${address.port}${path}`,
      close: () => this.#closeHttp(httpServer),
    };
  }

  /** Ends every session and stops the servers `listen` started. */
  async close(): Promise<void> {
    await Promise.all([...this.#httpServers].map((server) => this.#closeHttp(server)));
    await Promise.all([...this.#servers].map((server) => server.close()));
    this.#sessions.clear();
  }

  async #closeHttp(httpServer: http.Server): Promise<void> {
    this.#httpServers.delete(httpServer);
    await Promise.all([...this.#sessions.values()].map(({ server }) => server.close()));
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  }

  async #newSession(context: McpSessionContext): Promise<McpSession> {
    const initial = (await this.#options.session?.(context)) ?? {};
    const state = new State(this.#options.stateSchema, initial as StateInitialValues<S>) as unknown as State;
    return new McpSession(this.#tools, state, context.sessionId, this.#options.toolTimeoutMs);
  }

  #server(session: McpSession): Server {
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

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return new Error(`it is over ${maxBodyBytes} bytes`);
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
