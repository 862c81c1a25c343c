// serveMcp's cors option, with the requests a browser sends: the preflight (OPTIONS with Origin and
// Access-Control-Request-*), then the request itself with its Origin, whose answer the page's script
// may read only with the headers checked here.
import { Tool } from "toolwright";
import { type McpCorsOptions, serveMcp } from "toolwright/mcp";
import { closeAll, closing, errorBody, initializeBody, raw, sseMessages } from "../helpers/mcpHttpTesting";

afterEach(closeAll);

const ping = new Tool({ name: "ping", description: "Ping.", parameters: { type: "object", properties: {} }, function: () => "pong" });

async function start(cors?: McpCorsOptions): Promise<string> {
  const server = serveMcp({ tools: [ping], ...(cors !== undefined && { cors }) });
  closing.push(() => server.close());
  return (await server.listen()).url;
}

const app = "http://localhost:5173";
const corsHeaders = [
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-allow-credentials",
  "access-control-expose-headers",
  "access-control-max-age",
  "vary",
];

/** The preflight a browser sends before a POST with JSON and the MCP headers. */
function preflight(url: string, origin: string, method = "POST") {
  return raw(url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": "content-type, authorization, mcp-session-id, mcp-protocol-version" },
    read: corsHeaders,
  });
}

describe("McpCors", () => {
  it("answers the preflight of an allowed origin with the methods and headers MCP uses", async () => {
    const url = await start({ allowedOrigins: [app, "https://app.example.com"] });

    expect(await preflight(url, app)).toEqual({
      status: 204,
      headers: {
        "access-control-allow-origin": app,
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers": "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
        "access-control-allow-credentials": null,
        "access-control-expose-headers": "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate",
        "access-control-max-age": "600",
        vary: "Origin",
      },
      text: "",
    });
  });

  it("lets an allowed page read the session id of its initialize, and call with it", async () => {
    const url = await start({ allowedOrigins: [app], allowCredentials: true, allowedHeaders: ["X-Trace"], maxAgeSeconds: 60 });

    const preflightAnswer = await preflight(url, app);
    expect(preflightAnswer.headers).toMatchObject({
      "access-control-allow-headers": "Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID, X-Trace",
      "access-control-allow-credentials": "true",
      "access-control-max-age": "60",
    });
    const initialize = await raw(url, { body: initializeBody, headers: { origin: app }, read: [...corsHeaders, "mcp-session-id"] });
    expect(initialize.status).toBe(200);
    expect(initialize.headers).toMatchObject({
      "access-control-allow-origin": app,
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate",
      vary: "Origin",
    });
    const sessionId = initialize.headers["mcp-session-id"]!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    const headers = { origin: app, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    expect((await raw(url, { body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers })).status).toBe(202);
    const call = await raw(url, { body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ping", arguments: {} } }), headers, read: ["access-control-allow-origin"] });
    expect(call.headers["access-control-allow-origin"]).toBe(app);
    expect(sseMessages(call.text)).toEqual([{ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "pong" }] } }]);
  });

  it("refuses the preflight and the requests of any other origin with 403", async () => {
    const url = await start({ allowedOrigins: [app] });
    const refused = { status: 403, headers: { "access-control-allow-origin": null, vary: "Origin" }, text: errorBody(-32000, "Origin 'https://evil.example' is not allowed to call this MCP server; add it to serveMcp's cors.allowedOrigins.") };

    expect(await raw(url, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" }, read: ["access-control-allow-origin", "vary"] })).toEqual(refused);
    expect(await raw(url, { body: initializeBody, headers: { origin: "https://evil.example" }, read: ["access-control-allow-origin", "vary"] })).toEqual(refused);
    // Another port is another origin.
    expect((await raw(url, { body: initializeBody, headers: { origin: "http://localhost:5174" } })).status).toBe(403);
    // A client that is not a browser page sends no Origin: served.
    expect((await raw(url, { body: initializeBody })).status).toBe(200);
  });

  it("sends no CORS headers without the option, so a browser keeps other pages from reading the answers", async () => {
    const url = await start();

    const answer = await raw(url, { body: initializeBody, headers: { origin: app }, read: corsHeaders });

    expect(answer.status).toBe(200);
    expect(Object.values(answer.headers)).toEqual(corsHeaders.map(() => null));
  });

  it("refuses allowedOrigins that are not origins", () => {
    expect(() => serveMcp({ tools: [ping], cors: { allowedOrigins: ["https://app.example.com/"] } })).toThrow(
      "serveMcp has cors.allowedOrigins entry string \"https://app.example.com/\", which is not an origin (scheme://host[:port], nothing after); write 'https://app.example.com'.",
    );
    expect(() => serveMcp({ tools: [ping], cors: { allowedOrigins: ["*"] } })).toThrow(
      'serveMcp has cors.allowedOrigins entry string "*", which is not an origin (scheme://host[:port], nothing after).',
    );
    expect(() => serveMcp({ tools: [ping], cors: { allowedOrigins: "https://app.example.com" } as never })).toThrow(
      'serveMcp has a cors option that is not { allowedOrigins: [...] }, got an object.',
    );
  });
});
