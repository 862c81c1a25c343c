import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { LoggingMessageNotification, Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { ConfigurationError } from "../errors";
import { McpServerError } from "./mcpServerError";
import { describeKind } from "../util/describeValue";
import { mcpSdk } from "./mcpSdk";

/** An MCP server run as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServer {
  /** The executable, e.g. `npx` or `process.execPath`. */
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Environment variables for the server, added to the few the SDK passes on by default (PATH,
   * HOME, …); the rest of this process's environment (API keys) is not passed on.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What happens to the server's stderr: shown in this process's (default) or dropped. */
  readonly stderr?: "inherit" | "ignore";
}

/** An MCP server at a URL: Streamable HTTP, or the older HTTP+SSE transport. */
export interface McpHttpServer {
  readonly url: string | URL;
  /** Sent with every request (e.g. `authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** `"auto"` (default) tries Streamable HTTP, then HTTP+SSE; or name one. */
  readonly transport?: "auto" | "streamable-http" | "sse";
}

/** Where an McpToolset's server is. */
export type McpServerSpec = McpStdioServer | McpHttpServer;

const clientInfo = { name: "toolwright", version: "0.1.0" };

/** Lists every tool of the server, following pages (at most 100, against a server that never stops). */
export async function listAllTools(client: Client, signal?: AbortSignal): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, signal ? { signal } : {});
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** What a connection tells its toolset about the server. */
export interface McpConnectionEvents {
  /** The server says its tools changed, or it came back after a drop. */
  readonly onToolListChanged: () => void;
  /** The server sent a log message (`notifications/message`). */
  readonly onLog: (params: LoggingMessageNotification["params"]) => void;
}

/**
 * The toolset's connection to its server: made on connect, and again on the next use after the
 * server closed it (a child process that exited, an HTTP session that ended).
 */
export class McpConnection {
  readonly #spec: McpServerSpec;
  readonly #subject: string;
  readonly #events: McpConnectionEvents;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #lost: string | undefined;
  #closed = false;
  // The HTTP transport that worked ("auto" found it): a reconnect uses it again, so that a server
  // that is down is reported as such, not as a failed fallback to HTTP+SSE.
  #httpTransport: "streamable-http" | "sse" | undefined;

  constructor(spec: McpServerSpec, subject: string, events: McpConnectionEvents) {
    this.#spec = checkSpec(spec, subject);
    this.#subject = subject;
    this.#events = events;
  }

  /** What the server calls itself (after the first connect). */
  serverName: string | undefined;

  /** Why the last connection ended, when it ended without `close()`; cleared by the next connect. */
  get lost(): string | undefined {
    return this.#lost;
  }

  /** The connected client: the current one, or a new connection when there is none. */
  async client(): Promise<Client> {
    if (this.#closed) throw new McpServerError({ subject: this.#subject, message: `${this.#subject} is closed; connect a new McpToolset.` });
    if (this.#client) return this.#client;
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  /**
   * Runs `use` with the connected client. When an HTTP server answers 404 to the session (it ended
   * it, or restarted and forgot it; the spec's answer) or 400 (what the SDK's example servers
   * answer to a session id they do not know), the server refused the request without running it:
   * a new session is opened and `use` runs once more on it.
   */
  async use<T>(use: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.client();
    try {
      return await use(client);
    } catch (error) {
      if (!this.#isSessionGone(error) || this.#closed) throw error;
      this.#drop(client, "the server ended the session");
      return use(await this.client());
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    if (!client) return;
    // An HTTP session is ended on the server too (DELETE), not left open until the server times it out.
    const transport = client.transport as { terminateSession?: () => Promise<void> } | undefined;
    if (typeof transport?.terminateSession === "function") {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([transport.terminateSession().catch(() => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
    }
    await client.close();
  }

  // A Streamable HTTP server's 404 or 400 to a request of the session (they all carry its id): the
  // session is gone. A 400 for another reason comes again on the new session and is reported then.
  #isSessionGone(error: unknown): boolean {
    if (!("url" in this.#spec)) return false;
    const { StreamableHTTPError } = mcpSdk("streamableHttpClient", this.#subject);
    return error instanceof StreamableHTTPError && (error.code === 404 || error.code === 400);
  }

  // Forgets a connection that no longer works; the next use connects again.
  #drop(client: Client, why: string): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#lost = why;
    void client.close().catch(() => undefined);
  }

  async #connect(): Promise<Client> {
    const wasLost = this.#lost !== undefined;
    const spec = this.#spec;
    let client: Client;
    if ("command" in spec) {
      client = await this.#open(`the server started by ${commandLine(spec.command, spec.args ?? [])}`, "check the command and that it runs an MCP server on stdio", () => {
        const { StdioClientTransport } = mcpSdk("stdioClient", this.#subject);
        return new StdioClientTransport({
          command: spec.command,
          args: [...(spec.args ?? [])],
          ...(spec.env && { env: { ...spec.env } }),
          ...(spec.cwd !== undefined && { cwd: spec.cwd }),
          stderr: spec.stderr ?? "inherit",
        });
      });
    } else {
      client = await this.#openHttp(spec);
    }
    if (this.#closed) {
      await client.close();
      throw new McpServerError({ subject: this.#subject, message: `${this.#subject} is closed; connect a new McpToolset.` });
    }
    this.serverName = client.getServerVersion()?.name;
    this.#lost = undefined;
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#lost = "the server closed the connection";
    };
    this.#client = client;
    // A server that came back (restarted, redeployed) may offer other tools: read them again.
    if (wasLost) this.#events.onToolListChanged();
    return client;
  }

  async #openHttp(spec: McpHttpServer): Promise<Client> {
    const url = new URL(spec.url);
    const requestInit = spec.headers ? { headers: { ...spec.headers } } : undefined;
    const streamable = () => {
      const { StreamableHTTPClientTransport } = mcpSdk("streamableHttpClient", this.#subject);
      return new StreamableHTTPClientTransport(url, requestInit ? { requestInit } : undefined);
    };
    const sse = () => {
      const { SSEClientTransport } = mcpSdk("sseClient", this.#subject);
      return new SSEClientTransport(url, requestInit ? { requestInit } : undefined);
    };
    const transport = spec.transport ?? this.#httpTransport ?? "auto";
    const fix = "check the URL and that the server is up";
    if (transport === "streamable-http") return this.#open(url.href, fix, streamable);
    if (transport === "sse") return this.#open(url.href, fix, sse);
    try {
      const client = await this.#open(url.href, fix, streamable);
      this.#httpTransport = "streamable-http";
      return client;
    } catch (streamableError) {
      // A refusal of the credentials is the answer, not a sign of an older server: no fallback.
      const status = (streamableError as { cause?: { code?: unknown } }).cause?.code;
      if (status === 401 || status === 403) throw streamableError;
      try {
        const client = await this.#open(url.href, fix, sse);
        this.#httpTransport = "sse";
        return client;
      } catch (sseError) {
        throw new McpServerError({
          subject: this.#subject,
          message: `${this.#subject} could not connect to ${url.href}: Streamable HTTP failed (${errorText((streamableError as Error).cause)}), then HTTP+SSE failed (${errorText((sseError as Error).cause)}). Check the URL and that the server is up.`,
          cause: sseError,
        });
      }
    }
  }

  // `target` names what was tried (the URL, or the command line) and `fix` what to check.
  async #open(target: string, fix: string, makeTransport: () => Transport): Promise<Client> {
    const { Client: McpClient } = mcpSdk("client", this.#subject);
    const client = new McpClient(clientInfo, {
      capabilities: {},
      // The SDK's debounce timer may fire after close(): a closed toolset reads nothing again.
      listChanged: { tools: { autoRefresh: false, debounceMs: 100, onChanged: () => void (this.#closed || this.#events.onToolListChanged()) } },
    });
    const { LoggingMessageNotificationSchema } = mcpSdk("types", this.#subject);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      if (!this.#closed) this.#events.onLog(notification.params);
    });
    try {
      await client.connect(makeTransport());
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpServerError({ subject: this.#subject, message: `${this.#subject} could not connect to ${target}: ${errorText(error)}; ${fix}.`, cause: error });
    }
    return client;
  }
}

// `node server.js --root /data`, quoted where an argument has spaces, and cut short: enough to recognise it.
function commandLine(command: string, args: readonly string[]): string {
  const line = [command, ...args].map((part) => (/^[\w./:=@%+,-]+$/.test(part) ? part : JSON.stringify(part))).join(" ");
  return `\`${line.length > 200 ? `${line.slice(0, 199)}…` : line}\``;
}

/**
 * An error's message, with the reason a fetch failed ("fetch failed" alone says nothing: the cause
 * has "connect ECONNREFUSED 127.0.0.1:3001").
 */
// (Read by shape, not instanceof: fetch's errors come from Node's own realm.)
export function errorText(error: unknown): string {
  const message = messageOf(error) ?? String(error);
  const cause = messageOf((error as { cause?: unknown } | undefined)?.cause);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}

function messageOf(error: unknown): string | undefined {
  const message = typeof error === "object" && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === "string" && message !== "" ? message : undefined;
}

function checkSpec(spec: unknown, subject: string): McpServerSpec {
  const value = (typeof spec === "object" && spec !== null ? spec : undefined) as Partial<McpStdioServer & McpHttpServer> | undefined;
  const problem = (what: string) =>
    new ConfigurationError(subject, `${subject} has a server ${what}; pass { command, args?, env?, cwd? } for a child process or { url, headers?, transport? } for an HTTP server.`);
  if (!value || ("command" in value === "url" in value)) throw problem(`that is neither a command nor a URL, got ${describeKind(spec)}`);
  if ("command" in value) {
    if (typeof value.command !== "string" || value.command === "") throw problem(`command that is not a non-empty string, got ${describeKind(value.command)}`);
    if (value.args !== undefined && (!Array.isArray(value.args) || value.args.some((arg) => typeof arg !== "string"))) throw problem(`args that are not an array of strings`);
    if (value.env !== undefined && (typeof value.env !== "object" || value.env === null || Object.values(value.env).some((v) => typeof v !== "string"))) throw problem(`env that is not an object of strings`);
    if (value.stderr !== undefined && value.stderr !== "inherit" && value.stderr !== "ignore") throw problem(`stderr that is not "inherit" or "ignore", got ${describeKind(value.stderr)}`);
    return value as McpStdioServer;
  }
  try {
    const url = new URL(String(value.url));
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http");
  } catch {
    throw problem(`url that is not an http(s) URL, got ${describeKind(value.url)}`);
  }
  if (value.transport !== undefined && !["auto", "streamable-http", "sse"].includes(value.transport)) throw problem(`transport that is not "auto", "streamable-http" or "sse", got ${describeKind(value.transport)}`);
  return value as McpHttpServer;
}
