import type * as http from "node:http";
import type { StateInitialValues, StateSchema } from "../state/stateSchema";
import type { ToolSource } from "../tools/resolveTools";
import type { McpCorsOptions } from "./mcpCors";

/** What `session` is told about a new MCP session. */
export interface McpSessionContext {
  /** The session's id: the `mcp-session-id` of Streamable HTTP, or `"stdio"`. */
  readonly sessionId: string;
  readonly transport: "stdio" | "streamable-http";
  /** The HTTP request that opened the session (its headers carry the caller's credentials); undefined over stdio. */
  readonly request: http.IncomingMessage | undefined;
  /** What `authenticate` returned for that request; undefined over stdio and without `authenticate`. */
  readonly principal: string | undefined;
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
  /**
   * Who sent a Streamable HTTP request, from its credentials: called on every request, the
   * initialize included. Return a stable id of the user or client (not the token: tokens are
   * refreshed); throw to refuse the request (401 and the error's message). A session belongs to the
   * principal that opened it, and a request naming it with credentials of another principal is
   * refused (403). Without it, a session belongs to the exact `Authorization` header that opened it.
   */
  authenticate?: (request: http.IncomingMessage) => string | Promise<string>;
  /** Let web pages of these origins call the server from a browser (CORS). Default: no CORS headers. */
  cors?: McpCorsOptions;
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
