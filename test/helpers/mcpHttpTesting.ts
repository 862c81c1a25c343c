// What the serveMcp tests over Streamable HTTP share: the SDK's own client, and raw requests as a
// client with no SDK (or a browser) sends them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** Everything a test opens, closed after it (register with `closing.push`, call `closeAll` in afterEach). */
export const closing: Array<() => Promise<unknown>> = [];

/** Closes what the test opened, last first. */
export async function closeAll(): Promise<void> {
  for (const close of closing.splice(0).reverse()) await close();
}

/** An SDK client connected over Streamable HTTP with these headers (closed after the test). */
export async function connectClient(url: string, headers: Record<string, string> = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "serveMcp-test", version: "1.0.0" });
  closing.push(() => client.close());
  await client.connect(transport);
  return { client, transport };
}

/** An HTTP answer: status, the headers asked for, and the body text. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | null>;
  readonly text: string;
}

/** Sends one raw request (what a client with no SDK, or a browser, sends) and reads the whole answer. */
export async function raw(url: string, init: { method?: string; headers?: Record<string, string>; body?: string; read?: readonly string[] } = {}): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: init.method ?? "POST",
    headers: init.method === undefined || init.method === "POST" ? { "content-type": "application/json", accept: "application/json, text/event-stream", ...init.headers } : init.headers,
    ...(init.body !== undefined && { body: init.body }),
  });
  const headers = Object.fromEntries((init.read ?? []).map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, text: await response.text() };
}

/** The JSON-RPC messages of an SSE answer (its `data:` lines). */
export function sseMessages(text: string): unknown[] {
  return [...text.matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1]!) as unknown);
}

/** The JSON error body serveMcp (and the SDK's transport) answer with. */
export function errorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
}

/** An initialize request of a client with no SDK. */
export const initializeBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** Initializes a session with raw requests (initialize, then notifications/initialized) and returns its id. */
export async function rawSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: initializeBody });
  await response.text();
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || !id) throw new Error(`initialize answered ${response.status} without a session id`);
  const initialized = await raw(url, { headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return id;
}

/** Waits (checking every 50 ms, at most 10 s) until `done` is true. */
export async function until(what: string, done: () => boolean): Promise<void> {
  for (const started = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - started > 10_000) throw new Error(`${what} did not happen within 10 s`);
  }
}
