import type * as http from "node:http";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { truncateForEcho } from "../util/truncate";
import { sendError } from "./httpReplies";

/** Options of `serveMcp({ cors })`: which web pages may call the server from a browser. */
export interface McpCorsOptions {
  /**
   * The origins allowed to call, exactly as a browser sends them: scheme, host and port, no path
   * (`https://app.example.com`, `http://localhost:5173`). A request from any other origin is refused
   * with 403 — the page's own origin too, when it is not listed.
   */
  allowedOrigins: readonly string[];
  /** Request headers a page may send besides those MCP uses (Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID). */
  allowedHeaders?: readonly string[];
  /** Let pages send cookies and HTTP authentication (`credentials: "include"`). Default false. */
  allowCredentials?: boolean;
  /** How long a browser may reuse a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

const mcpRequestHeaders = ["Content-Type", "Accept", "Authorization", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID"];
// What a page's script may read of a response: the session id it must send back, the negotiated version, and why it was refused.
const exposedHeaders = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";

/** Answers CORS for one server: checked options, then `apply` per request. */
export class McpCors {
  readonly #origins: ReadonlySet<string>;
  readonly #allowedHeaders: string;
  readonly #credentials: boolean;
  readonly #maxAge: string;

  constructor(options: McpCorsOptions) {
    if (typeof options !== "object" || options === null || !Array.isArray(options.allowedOrigins)) {
      throw new ConfigurationError("serveMcp", `serveMcp has a cors option that is not { allowedOrigins: [...] }, got ${describeKind(options)}.`);
    }
    for (const origin of options.allowedOrigins) {
      if (typeof origin !== "string" || originOf(origin) !== origin) {
        const fix = typeof origin === "string" && originOf(origin) ? `; write '${originOf(origin)}'` : "";
        throw new ConfigurationError("serveMcp", `serveMcp has cors.allowedOrigins entry ${describeKind(origin)}, which is not an origin (scheme://host[:port], nothing after)${fix}.`);
      }
    }
    const extra = options.allowedHeaders ?? [];
    if (!Array.isArray(extra) || extra.some((header) => typeof header !== "string" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header))) {
      throw new ConfigurationError("serveMcp", `serveMcp has cors.allowedHeaders that is not a list of header names, got ${describeKind(extra)}.`);
    }
    const maxAge = options.maxAgeSeconds ?? 600;
    if (typeof maxAge !== "number" || !Number.isSafeInteger(maxAge) || maxAge < 0) {
      throw new ConfigurationError("serveMcp", `serveMcp has cors.maxAgeSeconds that is not a whole number of seconds, got ${describeKind(maxAge)}.`);
    }
    this.#origins = new Set(options.allowedOrigins);
    this.#allowedHeaders = [...new Set([...mcpRequestHeaders, ...extra])].join(", ");
    this.#credentials = options.allowCredentials === true;
    this.#maxAge = String(maxAge);
  }

  /**
   * Sets the CORS headers of a request from an allowed origin, and answers a preflight (204) or a
   * request from another origin (403) itself: true when it answered. A request without an Origin
   * header (not from a browser page) passes untouched.
   */
  apply(request: http.IncomingMessage, response: http.ServerResponse): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return false;
    if (!this.#origins.has(origin)) {
      sendError(response, 403, -32000, `Origin '${truncateForEcho(origin)}' is not allowed to call this MCP server; add it to serveMcp's cors.allowedOrigins.`, { vary: "Origin" });
      return true;
    }
    response.setHeader("access-control-allow-origin", origin);
    response.setHeader("vary", "Origin");
    response.setHeader("access-control-expose-headers", exposedHeaders);
    if (this.#credentials) response.setHeader("access-control-allow-credentials", "true");
    if (request.method !== "OPTIONS") return false;
    response
      .writeHead(204, {
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers": this.#allowedHeaders,
        "access-control-max-age": this.#maxAge,
      })
      .end();
    return true;
  }
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.origin === "null" ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
