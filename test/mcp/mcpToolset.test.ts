// McpToolset, the client side of toolwright/mcp, against real MCP servers: the reference servers
// @modelcontextprotocol/server-filesystem and server-everything over stdio, and servers written here
// with the SDK's McpServer over Streamable HTTP (and the older HTTP+SSE transport). Nothing is
// mocked: every assertion reads what a server did (a file on disk, the arguments its handler got,
// its handler's abort signal, its sessions) or what the model was sent.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { Agent, type AgentResult, ChatMessage, ConfigurationError, type StateSchema, Tool, ToolInvocationError } from "toolwright";
import { type McpLogMessage, McpToolError, McpToolset, type McpServerSpec, type McpToolsetOptions, type McpWarning } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { z } from "zod";
import { useMcpCleanup } from "../helpers/mcpCleanup";

const modules = path.join(__dirname, "../../node_modules");
const filesystemServer = path.join(modules, "@modelcontextprotocol/server-filesystem/dist/index.js");
const everythingServer = path.join(modules, "@modelcontextprotocol/server-everything/dist/index.js");
const exitingServer = path.join(__dirname, "fixtures/exitingServer.js");

const { connect, tempDir, onClose } = useMcpCleanup("toolwright-mcp-");

/** One model reply with these calls (ids c1, c2, …), then a text answer. */
function script(...calls: Array<[string, Record<string, unknown>]>): ScriptedChatGenerator {
  return new ScriptedChatGenerator([toolCallReply(...calls.map(([name, args], i): [string, Record<string, unknown>, string] => [name, args, `c${i + 1}`])), ChatMessage.fromAssistant("done")]);
}

/** The tool results of a run, in call order: the text the model got and whether it is an error. */
function toolResults(result: AgentResult<StateSchema>): Array<{ result: string; error: boolean }> {
  return result.messages.filter((message) => message.role === "tool").map((message) => ({ result: message.toolCallResult!.result, error: message.toolCallResult!.error }));
}

async function runCalls(toolset: McpToolset, ...calls: Array<[string, Record<string, unknown>]>) {
  const model = script(...calls);
  const result = await new Agent({ chatGenerator: model, tools: [toolset] }).run({ messages: [ChatMessage.fromUser("go")] });
  return { model, result, results: toolResults(result) };
}

type ToolsChange = Parameters<NonNullable<McpToolsetOptions["onToolsChanged"]>>[0];

/** What onToolsChanged was told: the tools' names, or the error. */
function changeNames(change: ToolsChange): string[] {
  return change.error !== undefined ? [`error: ${change.error.message}`] : change.tools.map((tool) => tool.name);
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (const started = Date.now(); !condition(); await sleep(10)) {
    if (Date.now() - started > 10_000) throw new Error(`still not true after 10 s: ${what}`);
  }
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What a server's handler reports; fails after 10 s instead of waiting for jest's timeout. */
async function settled<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still waiting after 10 s: ${what}`)), 10_000)));
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function configurationError(promise: Promise<unknown>): Promise<ConfigurationError> {
  const error = await promise.then(
    // A toolset that connected when it should not have is closed (its server would keep jest alive).
    async (connected) => void (await (connected as McpToolset | undefined)?.close?.()),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return error as ConfigurationError;
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface HttpSession {
  readonly server: McpServer;
  readonly transport: StreamableHTTPServerTransport;
  /** Resolves when the session's GET stream (the server's notifications to the client) is open. */
  readonly streamOpen: Promise<void>;
}

interface TestHttpServer {
  readonly url: string;
  /** Open sessions by id (a session is removed when its transport closes). */
  readonly sessions: Map<string, HttpSession>;
  /** The HTTP method of every request, in order. */
  readonly methods: string[];
}

/**
 * An MCP server over Streamable HTTP, stateful: each session gets its own McpServer (made by
 * `setup`) and transport, found again by its mcp-session-id, as in the SDK's examples.
 */
async function startHttpServer(setup: (server: McpServer) => void, name = "test-server"): Promise<TestHttpServer> {
  const sessions = new Map<string, HttpSession>();
  const streams = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const methods: string[] = [];
  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (!session) {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      const handled = session.transport.handleRequest(request, response);
      // The GET stream is open (the transport sends notifications on it) once its headers are out.
      if (request.method === "GET") await until("the GET stream's headers are out", () => response.headersSent).then(() => streams.get(sessionId)?.resolve());
      await handled;
      return;
    }
    const server = new McpServer({ name, version: "1.0.0" });
    setup(server);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        const stream = deferred();
        streams.set(id, stream);
        sessions.set(id, { server, transport, streamOpen: stream.promise });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const httpServer = http.createServer((request, response) => {
    methods.push(request.method ?? "");
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  onClose(async () => {
    for (const session of sessions.values()) await session.transport.close();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`, sessions, methods };
}

/** The one open session of a server. */
function onlySession(server: TestHttpServer): HttpSession {
  expect(server.sessions.size).toBe(1);
  return [...server.sessions.values()][0]!;
}

describe("McpToolset on a third-party server over stdio (server-filesystem)", () => {
  const include = ["list_directory", "read_text_file", "write_file"];

  it("gives an Agent the chosen tools, prefixed and strict, and runs them on the real files", async () => {
    const dir = tempDir();
    const file = path.join(dir, "note.txt");
    const files = await connect({ command: process.execPath, args: [filesystemServer, dir], stderr: "ignore" }, { prefix: "fs_", include });

    // The server's order, with the prefix; the server's draft-07 `$schema` is not passed on.
    expect(files.name).toBe("secure-filesystem-server");
    expect(files.tools.map((tool) => tool.name)).toEqual(["fs_read_text_file", "fs_write_file", "fs_list_directory"]);
    expect(files.tools.map((tool) => tool.strictCompatibility.compatible)).toEqual([true, true, true]);
    expect(files.tools[1]!.parameters).toEqual({ type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"], additionalProperties: false });
    expect(files.tools[0]!.source).toBe("MCP server 'secure-filesystem-server', tool 'read_text_file'");

    const model = new ScriptedChatGenerator([
      toolCallReply(["fs_write_file", { path: file, content: "hello from the agent" }, "c1"]),
      toolCallReply(["fs_read_text_file", { path: file }, "c2"], ["fs_list_directory", { path: dir }, "c3"], ["fs_read_text_file", { path: path.join(dir, "missing.txt") }, "c4"]),
      ChatMessage.fromAssistant("done"),
    ]);
    const result = await new Agent({ chatGenerator: model, tools: [files] }).run({ messages: [ChatMessage.fromUser("write, read and list")] });

    expect(fs.readFileSync(file, "utf8")).toBe("hello from the agent");
    expect(model.requests[0]!.tools!.map((tool) => [tool.name, tool.strict])).toEqual([
      ["fs_read_text_file", true],
      ["fs_write_file", true],
      ["fs_list_directory", true],
    ]);
    // The server answers with structuredContent ({ content }): the model gets it as JSON.
    expect(toolResults(result)).toEqual([
      { result: JSON.stringify({ content: `Successfully wrote to ${file}` }), error: false },
      { result: JSON.stringify({ content: "hello from the agent" }), error: false },
      { result: JSON.stringify({ content: "[FILE] note.txt" }), error: false },
      // An isError result: the server's own text, as an error tool message.
      { result: `Tool 'fs_read_text_file' failed: ENOENT: no such file or directory, open '${path.join(dir, "missing.txt")}'.`, error: true },
    ]);
  });

  it("raises an isError result as McpToolError with the server's text when the Agent raises tool failures", async () => {
    const dir = tempDir();
    const files = await connect({ command: process.execPath, args: [filesystemServer, dir], stderr: "ignore" }, { include: ["read_text_file"] });
    const agent = new Agent({ chatGenerator: script(["read_text_file", { path: "/etc/hostname" }]), tools: [files], raiseOnToolInvocationFailure: true });

    const error = await agent.run({ messages: [ChatMessage.fromUser("read")] }).then(
      () => undefined,
      (e: unknown) => e as ToolInvocationError,
    );
    expect(error).toBeInstanceOf(ToolInvocationError);
    expect(error!.cause).toBeInstanceOf(McpToolError);
    expect((error!.cause as Error).message).toBe(`Access denied - path outside allowed directories: /etc/hostname not in ${dir}`);
  });
});

describe("McpToolset on server-everything over stdio", () => {
  it("sends text results as text, structuredContent as its JSON, and refuses bad arguments itself", async () => {
    const everything = await connect({ command: process.execPath, args: [everythingServer, "stdio"], stderr: "ignore" }, { include: ["echo", "get-sum", "get-structured-content", "get-tiny-image"] });
    // get-tiny-image's image is a part of its result (mcpToolsetBinary.test.ts).

    const { model, results } = await runCalls(
      everything,
      ["echo", { message: "hi there" }],
      ["get-sum", { a: 2, b: 3 }],
      ["get-structured-content", { location: "Chicago" }],
      ["get-sum", { a: "two", b: 3, c: 1 }],
    );

    expect(everything.name).toBe("mcp-servers/everything");
    expect(model.requests[0]!.tools!.map((tool) => tool.name)).toEqual(["echo", "get-structured-content", "get-sum", "get-tiny-image"]);
    expect(results).toEqual([
      { result: "Echo: hi there", error: false },
      { result: "The sum of 2 and 3 is 5.", error: false },
      { result: JSON.stringify({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 }), error: false },
      {
        result: `Tool 'get-sum' was called with invalid arguments: c is not a parameter of this tool (parameters: a, b); a must be number (got string "two"). Call the tool again with corrected arguments.`,
        error: true,
      },
    ]);
  });
});

describe("McpToolset calls and the run's signal", () => {
  it("gives each call a signal of its own: a run of 15 calls adds no listener to the run's signal (no MaxListenersExceededWarning)", async () => {
    const everything = await connect({ command: process.execPath, args: [everythingServer, "stdio"], stderr: "ignore" }, { include: ["echo"] });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const steps = Array.from({ length: 15 }, (_, i) => toolCallReply(["echo", { message: `m${i}` }, `c${i}`]));
      const result = await new Agent({ chatGenerator: new ScriptedChatGenerator([...steps, ChatMessage.fromAssistant("done")]), tools: [everything] }).run({ messages: [ChatMessage.fromUser("go")] });
      await new Promise((resolve) => setImmediate(resolve));

      expect(toolResults(result).map(({ result: text }) => text)).toEqual(Array.from({ length: 15 }, (_, i) => `Echo: m${i}`));
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("McpToolset and schemas it cannot use", () => {
  it("refuses at connect a tool whose input schema the validator cannot compile, naming the tool and the fix", async () => {
    const server = await startHttpServer((mcp) => {
      mcp.server.registerCapabilities({ tools: {} });
      mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "lookup", inputSchema: { type: "object", properties: { id: { $ref: "#/$defs/missing" } } } }] }));
    }, "broken");

    const error = await configurationError(McpToolset.connect({ url: server.url }));

    // The failed connect left no session open on the server.
    expect(server.sessions.size).toBe(0);
    expect(error.message).toMatch(/^McpToolset 'broken': the server's tool 'lookup' cannot be used: Tool 'lookup' has parameters that are not a valid JSON Schema: .*#\/\$defs\/missing.* Fix its options or leave it out with exclude\.$/s);
  });
});

describe("McpToolset on a server over Streamable HTTP", () => {
  it("validates the model's arguments before calling: a wrong type or an unknown property never reaches the server", async () => {
    const received: unknown[] = [];
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("add", { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } }, async (args) => {
        received.push(args);
        return { content: [{ type: "text", text: String(args.a + args.b) }] };
      });
    });
    const toolset = await connect({ url: server.url });

    const { results } = await runCalls(toolset, ["add", { a: "1", b: 2 }], ["add", { a: 1, b: 2, c: 3 }], ["add", { a: 1 }], ["add", { a: 1, b: 2 }]);

    expect(results).toEqual([
      { result: `Tool 'add' was called with invalid arguments: a must be number (got string "1"). Call the tool again with corrected arguments.`, error: true },
      { result: "Tool 'add' was called with invalid arguments: c is not a parameter of this tool (parameters: a, b). Call the tool again with corrected arguments.", error: true },
      { result: "Tool 'add' was called with invalid arguments: b is required. Call the tool again with corrected arguments.", error: true },
      { result: "3", error: false },
    ]);
    expect(received).toEqual([{ a: 1, b: 2 }]);
  });

  it("fills a hidden parameter from the Agent's State (inputsFromState) and merges a structuredContent key into it (outputsToState)", async () => {
    const received: unknown[] = [];
    const server = await startHttpServer((mcp) => {
      mcp.registerTool(
        "orders",
        { description: "A customer's orders.", inputSchema: { customer_id: z.string(), status: z.enum(["open", "closed"]) }, outputSchema: { latest_order: z.string(), count: z.number() } },
        async (args) => {
          received.push(args);
          const structured = { latest_order: `${args.customer_id}-${args.status}-7`, count: 2 };
          return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
        },
      );
    });
    const toolset = await connect({ url: server.url }, { tools: { orders: { inputsFromState: { customer: "customer_id" }, outputsToState: { last_order: { source: "latest_order" } } } } });
    const stateSchema = { customer: { type: z.string() }, last_order: { type: z.string() } };

    // The model's schema has no customer_id; a model that sets it anyway is refused before the call.
    expect(toolset.tools[0]!.parameters).toEqual({ type: "object", properties: { status: { type: "string", enum: ["open", "closed"] } }, required: ["status"], additionalProperties: false });
    const model = script(["orders", { status: "open" }], ["orders", { status: "open", customer_id: "someone-else" }]);
    const result = await new Agent({ chatGenerator: model, tools: [toolset], stateSchema }).run({ messages: [ChatMessage.fromUser("my orders")], customer: "c-42" });

    expect(received).toEqual([{ customer_id: "c-42", status: "open" }]);
    expect(result.last_order).toBe("c-42-open-7");
    expect(model.requests[0]!.tools![0]!.parameters).toEqual(toolset.tools[0]!.parameters);
    expect(toolResults(result)).toEqual([
      { result: JSON.stringify({ latest_order: "c-42-open-7", count: 2 }), error: false },
      { result: "Tool 'orders' was called with invalid arguments: customer_id is not a parameter of this tool (parameters: status). Call the tool again with corrected arguments.", error: true },
    ]);
  });

  it("refuses per-tool options that do not fit the server's tool, naming it", async () => {
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("orders", { inputSchema: { customer_id: z.string() } }, async () => ({ content: [] }));
    });

    const error = await configurationError(McpToolset.connect({ url: server.url }, { tools: { orders: { inputsFromState: { customer: "customer" } } } }));
    expect(error.subject).toBe("McpToolset 'test-server'");
    expect(error.message).toBe(
      "McpToolset 'test-server': the server's tool 'orders' cannot be used: Tool 'orders' fills 'customer' from state, but 'customer' is not one of its parameters: declare it in the parameters (the model never sees it) or fix the name. Parameters: customer_id. Fix its options or leave it out with exclude.",
    );
    // The failed connect ended its session on the server.
    expect(server.sessions.size).toBe(0);
  });

  it("fails a call the server does not answer within timeoutMs, and tells the server to cancel it", async () => {
    const cancelled = deferred<unknown>();
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("hang", { inputSchema: {} }, (_args, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => (cancelled.resolve(extra.signal.reason), resolve({ content: [] })))));
    });
    const toolset = await connect({ url: server.url }, { timeoutMs: 300 });

    const { results } = await runCalls(toolset, ["hang", {}]);

    expect(results).toEqual([{ result: "Tool 'hang' failed: MCP server 'test-server' did not answer the call to 'hang' within 300 ms (timeoutMs); the server was told to cancel it.", error: true }]);
    // The handler's signal aborts because the client sent notifications/cancelled (the session stays open).
    expect(String(await settled("the handler's abort", cancelled.promise))).toBe("McpError: MCP error -32001: Request timed out");
    expect(server.sessions.size).toBe(1);
  });

  it("passes the run's abort to the server's handler", async () => {
    const started = deferred();
    const aborted = deferred<unknown>();
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("hang", { inputSchema: {} }, (_args, extra) => {
        started.resolve();
        return new Promise((resolve) => extra.signal.addEventListener("abort", () => (aborted.resolve(extra.signal.reason), resolve({ content: [] }))));
      });
    });
    const toolset = await connect({ url: server.url });
    const controller = new AbortController();

    const run = new Agent({ chatGenerator: script(["hang", {}]), tools: [toolset] }).run({ messages: [ChatMessage.fromUser("go")], signal: controller.signal });
    // (A run that ends before the call reached the server fails the test here.)
    await settled("the call to reach the server", Promise.race([started.promise, run.then(() => Promise.reject(new Error("the run ended before the call reached the server")))]));
    controller.abort();

    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(String(await settled("the handler's abort", aborted.promise))).toBe("AbortError: This operation was aborted");
  });

  it("reads the tools again when the server says they changed, and the Agent's next run sends the new one", async () => {
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("first", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "first ran" }] }));
    });
    const changes: string[][] = [];
    const changed = deferred();
    const toolset = await connect({ url: server.url }, { onToolsChanged: (change) => (changes.push(changeNames(change)), changed.resolve()) });
    const revision = toolset.revision;
    const model = new ScriptedChatGenerator([ChatMessage.fromAssistant("nothing to do"), toolCallReply(["second", { text: "x" }, "c1"]), ChatMessage.fromAssistant("done")]);
    const agent = new Agent({ chatGenerator: model, tools: [toolset] });
    await agent.run({ messages: [ChatMessage.fromUser("one")] });

    // McpServer sends notifications/tools/list_changed when a tool is added after it connected.
    const session = onlySession(server);
    await settled("the GET stream to open", session.streamOpen);
    session.server.registerTool("second", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text: `second got ${text}` }] }));
    await settled("onToolsChanged", changed.promise);

    expect(changes).toEqual([["first", "second"]]);
    expect(toolset.tools.map((tool) => tool.name)).toEqual(["first", "second"]);
    expect(toolset.revision).toBe(revision + 1);
    const second = await agent.run({ messages: [ChatMessage.fromUser("two")] });
    expect(model.requests.map((request) => request.tools!.map((tool) => tool.name))).toEqual([["first"], ["first", "second"], ["first", "second"]]);
    expect(toolResults(second)).toEqual([{ result: "second got x", error: false }]);
  });

  /** A server whose tools/list handler the test controls: `list` answers each tools/list request. */
  function listingServer(list: (listing: number) => Promise<McpToolInfo[]>) {
    let listings = 0;
    return startHttpServer((mcp) => {
      mcp.server.registerCapabilities({ tools: { listChanged: true } });
      mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await list(++listings) }));
      mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: "text", text: `${request.params.name} ran` }] }));
    });
  }
  const listed = (name: string): McpToolInfo => ({ name, inputSchema: { type: "object", properties: {} } });

  it("reads the tools again after a refresh asked for while one was reading (that reading may predate the change)", async () => {
    const tools = [listed("a")];
    const reading = deferred();
    const release = deferred();
    const server = await listingServer(async (listing) => {
      const snapshot = [...tools];
      if (listing === 2) {
        reading.resolve();
        await release.promise;
      }
      return snapshot;
    });
    const changes: string[][] = [];
    const toolset = await connect({ url: server.url }, { onToolsChanged: (change) => void changes.push(changeNames(change)) });

    const first = toolset.refresh();
    await settled("the second tools/list", reading.promise);
    tools.push(listed("b"));
    const second = toolset.refresh();
    release.resolve();
    await Promise.all([first, second]);

    expect(changes).toEqual([["a"], ["a", "b"]]);
    expect(toolset.tools.map((tool) => tool.name)).toEqual(["a", "b"]);
  });

  it("does not lose a change the server announces while the tools are first listed", async () => {
    const tools = [listed("a")];
    let session: HttpSession | undefined;
    const server = await listingServer(async (listing) => {
      const snapshot = [...tools];
      if (listing === 1) {
        // The list is read, then the server changes and says so, and its answer arrives after the
        // client's 100 ms debounce of the notification.
        tools.push(listed("b"));
        session = [...server.sessions.values()][0]!;
        await settled("the GET stream to open", session.streamOpen);
        await session.server.server.sendToolListChanged();
        await sleep(300);
      }
      return snapshot;
    });
    const changed = deferred();
    const toolset = await connect({ url: server.url }, { onToolsChanged: () => changed.resolve() });
    await settled("onToolsChanged", changed.promise);

    expect(toolset.tools.map((tool) => tool.name)).toEqual(["a", "b"]);
  });

  it("opens a new session when the server forgot the old one (404), and the call goes through", async () => {
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
    });
    const changes: string[][] = [];
    const toolset = await connect({ url: server.url }, { onToolsChanged: (change) => void changes.push(changeNames(change)) });
    const first = onlySession(server).transport.sessionId;
    // The server ends the session (as after a restart): it answers 404 to that session id.
    await onlySession(server).transport.close();
    expect(server.sessions.size).toBe(0);

    const { results } = await runCalls(toolset, ["echo", { text: "still here" }]);

    expect(results).toEqual([{ result: "still here", error: false }]);
    expect(onlySession(server).transport.sessionId).not.toBe(first);
    // After the new session the tools are read again: the server may have changed.
    await until("the tools were read again", () => changes.length === 1);
    expect(changes).toEqual([["echo"]]);
  });

  it("ends its HTTP session on the server when closed (DELETE), and refuses calls after close", async () => {
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
    });
    const toolset = await McpToolset.connect({ url: server.url }, { name: "echoes" });
    expect(server.sessions.size).toBe(1);

    await toolset.close();

    expect(server.methods.filter((method) => method === "DELETE")).toHaveLength(1);
    expect(server.sessions.size).toBe(0);
    const { results } = await runCalls(toolset, ["echo", { text: "hello?" }]);
    expect(results).toEqual([{ result: "Tool 'echo' failed: McpToolset 'echoes' is closed; connect a new McpToolset.", error: true }]);
  });
});

describe("McpToolset when the server's new tool list collides", () => {
  it("leaves out a new tool named like another of the Agent's tools, with a warning, and the rest keep working", async () => {
    const server = await startHttpServer((mcp) => {
      mcp.registerTool("first", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "first ran" }] }));
    });
    const warnings: McpWarning[] = [];
    const changed: string[][] = [];
    const toolset = await connect({ url: server.url }, { onWarning: (warning) => void warnings.push(warning), onToolsChanged: (change) => void changed.push(changeNames(change)) });
    const search = new Tool({ name: "search", description: "Searches.", parameters: z.object({ q: z.string() }), function: ({ q }) => `native search for ${q}` });
    const model = new ScriptedChatGenerator([
      ChatMessage.fromAssistant("nothing to do"),
      toolCallReply(["search", { q: "x" }, "c1"], ["first", {}, "c2"], ["a_b", {}, "c3"]),
      ChatMessage.fromAssistant("done"),
    ]);
    const agent = new Agent({ chatGenerator: model, tools: [toolset, search] });
    await agent.run({ messages: [ChatMessage.fromUser("one")] });

    // The server adds a tool named like the Agent's native tool, and two that both become 'a_b'.
    const session = onlySession(server);
    await settled("the GET stream to open", session.streamOpen);
    session.server.registerTool("search", { inputSchema: { q: z.string() } }, async () => ({ content: [{ type: "text", text: "server search" }] }));
    session.server.registerTool("a_b", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "a_b ran" }] }));
    session.server.registerTool("a.b", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "a.b ran" }] }));
    await until("the new tools were read", () => changed.some((names) => names.includes("a_b")));

    const second = await agent.run({ messages: [ChatMessage.fromUser("two")] });

    expect(toolResults(second)).toEqual([
      { result: "native search for x", error: false },
      { result: "first ran", error: false },
      { result: "a_b ran", error: false },
    ]);
    expect(model.requests[1]!.tools!.map((tool) => tool.name)).toEqual(["first", "a_b", "search"]);
    expect(warnings).toEqual([
      { code: "nameClash", tool: "a.b", message: "McpToolset 'test-server': the server's tools 'a_b' and 'a.b' both become 'a_b' for the model; leave one out with exclude; it is left out, the other tools are used." },
      {
        code: "nameClash",
        tool: "search",
        message: "McpToolset 'test-server': the server's tool 'search' is left out: Agent has another tool named 'search': Tool 'search'; give the toolset a prefix or exclude one of them.",
      },
    ]);
    // A third run says nothing new.
    await agent.run({ messages: [ChatMessage.fromUser("three")] }).catch(() => undefined);
    expect(warnings).toHaveLength(2);
  });
});

describe("McpToolset and server logs", () => {
  it("hands server-everything's log messages (notifications/message) to onLog", async () => {
    const logs: McpLogMessage[] = [];
    const everything = await connect({ command: process.execPath, args: [everythingServer, "stdio"], stderr: "ignore" }, { include: ["toggle-simulated-logging"], onLog: (message) => void logs.push(message) });

    const { results } = await runCalls(everything, ["toggle-simulated-logging", {}]);
    await until("a log message arrived", () => logs.length > 0);

    expect(results[0]!.result).toMatch(/^Started simulated, random-leveled logging/);
    expect(logs[0]).toEqual({ server: "mcp-servers/everything", level: expect.stringMatching(/^(debug|info|notice|warning|error|critical|alert|emergency)$/), data: expect.stringMatching(/^\w+[- ]level[- ]message$/i) });
    expect(logs[0]!.data).toMatch(new RegExp(`^${logs[0]!.level}`, "i"));
  });
});

describe("McpToolset's tool names", () => {
  const long = "x".repeat(60);
  const namingServer = () =>
    startHttpServer((mcp) => {
      for (const name of ["files.read", "a.b", "a_b", long]) mcp.registerTool(name, { inputSchema: {} }, async () => ({ content: [{ type: "text", text: `${name} ran` }] }));
    }, "naming-server");

  it("gives the model '_' for characters it refuses, and calls the server's tool by its own name", async () => {
    const server = await namingServer();
    const toolset = await connect({ url: server.url }, { exclude: ["a_b"] });

    expect(toolset.tools.map((tool) => tool.name)).toEqual(["files_read", "a_b", long]);
    const { results } = await runCalls(toolset, ["files_read", {}], ["a_b", {}]);
    expect(results).toEqual([
      { result: "files.read ran", error: false },
      { result: "a.b ran", error: false },
    ]);
  });

  it("refuses two tools that become the same name, and a name too long with the prefix", async () => {
    const server = await namingServer();

    const clash = await configurationError(McpToolset.connect({ url: server.url }));
    expect(clash.subject).toBe("McpToolset 'naming-server'");
    expect(clash.message).toBe("McpToolset 'naming-server': the server's tools 'a.b' and 'a_b' both become 'a_b' for the model; leave one out with exclude.");
    const tooLong = await configurationError(McpToolset.connect({ url: server.url }, { exclude: ["a_b"], prefix: "long_prefix_" }));
    expect(tooLong.message).toBe(
      `McpToolset 'naming-server': the server's tool '${long}' has no valid name for a model (1-64 letters, digits, '_' or '-' with the prefix 'long_prefix_'); leave it out with exclude: ["${long}"] or shorten the prefix.`,
    );
    expect(server.sessions.size).toBe(0);
  });

  it("refuses include, exclude and tools options naming a tool the server does not have", async () => {
    const server = await namingServer();
    const listed = `files.read, a.b, a_b, ${long}`;

    for (const [options, where] of [
      [{ include: ["files.read", "files.write"] }, "include"],
      [{ exclude: ["files.write"] }, "exclude"],
      [{ tools: { "files.write": {} } }, "tools"],
    ] as const) {
      const error = await configurationError(McpToolset.connect({ url: server.url }, options));
      expect(error.message).toBe(`McpToolset 'naming-server' names 'files.write' in ${where}, which is not one of the server's tools: ${listed}.`);
    }
    // A name given in the options is the subject.
    const named = await configurationError(McpToolset.connect({ url: server.url }, { name: "docs", include: ["nope"] }));
    expect(named.subject).toBe("McpToolset 'docs'");
    expect(named.message).toBe(`McpToolset 'docs' names 'nope' in include, which is not one of the server's tools: ${listed}.`);
    expect(server.sessions.size).toBe(0);
  });
});

describe("McpToolset's HTTP transports", () => {
  it("falls back to HTTP+SSE when the server does not speak Streamable HTTP", async () => {
    const transports = new Map<string, SSEServerTransport>();
    const httpServer = http.createServer((request, response) => {
      void (async () => {
        const url = new URL(request.url!, "http://localhost");
        if (request.method === "GET" && url.pathname === "/sse") {
          const transport = new SSEServerTransport("/messages", response);
          transports.set(transport.sessionId, transport);
          response.on("close", () => transports.delete(transport.sessionId));
          const server = new McpServer({ name: "old-server", version: "1.0.0" });
          server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text: `old: ${text}` }] }));
          await server.connect(transport);
        } else if (request.method === "POST" && url.pathname === "/messages") {
          await transports.get(url.searchParams.get("sessionId") ?? "")!.handlePostMessage(request, response);
        } else {
          response.writeHead(405).end();
        }
      })();
    });
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    onClose(async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    });

    const toolset = await connect({ url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/sse` });
    const { results } = await runCalls(toolset, ["echo", { text: "hi" }]);

    expect(toolset.name).toBe("old-server");
    expect(results).toEqual([{ result: "old: hi", error: false }]);
    await toolset.close();
    await until("the SSE stream is closed", () => transports.size === 0);
  });

  it("names both attempts when nothing listens at the URL", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;

    // (The eventsource package adds fetch's cause to its message only when it sees it as an Error:
    // not across jest's realms.)
    const refused = `connect ECONNREFUSED 127.0.0.1:${port}`;
    const error = await McpToolset.connect({ url }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect([
      `McpToolset could not connect to ${url}: Streamable HTTP failed (fetch failed (${refused})), then HTTP+SSE failed (SSE error: TypeError: fetch failed: ${refused}). Check the URL and that the server is up.`,
      `McpToolset could not connect to ${url}: Streamable HTTP failed (fetch failed (${refused})), then HTTP+SSE failed (SSE error: TypeError: fetch failed). Check the URL and that the server is up.`,
    ]).toContain(error?.message);
    await expect(McpToolset.connect({ url, transport: "streamable-http" }, { name: "api" })).rejects.toThrow(
      `McpToolset 'api' could not connect to ${url}: fetch failed (connect ECONNREFUSED 127.0.0.1:${port}); check the URL and that the server is up.`,
    );
  });
});

describe("McpToolset over stdio when the server goes away", () => {
  it("fails the call in flight when the server's process exits, and the next call starts a new one", async () => {
    const changes: string[][] = [];
    const toolset = await connect({ command: process.execPath, args: [exitingServer], stderr: "ignore" }, { onToolsChanged: (change) => void changes.push(changeNames(change)) });
    const before = toolset.revision;

    const pid = Number((await runCalls(toolset, ["pid", {}])).results[0]!.result);
    expect(() => process.kill(pid, 0)).not.toThrow();

    expect((await runCalls(toolset, ["crash", {}])).results).toEqual([
      {
        result: "Tool 'crash' failed: MCP server 'exiting-server' closed the connection during the call to 'crash'; the call may or may not have run. The next call reconnects.",
        error: true,
      },
    ]);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));

    const again = await runCalls(toolset, ["pid", {}]);
    expect(again.results[0]!.error).toBe(false);
    const newPid = Number(again.results[0]!.result);
    expect(newPid).not.toBe(pid);
    expect(() => process.kill(newPid, 0)).not.toThrow();
    // The new process's tools are read again.
    await until("the tools were read again", () => changes.length === 1);
    expect(changes).toEqual([["pid", "crash"]]);
    expect(toolset.revision).toBe(before + 1);

    await toolset.close();
    await until("the server's process has exited", () => {
      try {
        process.kill(newPid, 0);
        return false;
      } catch {
        return true;
      }
    });
  });

  it("says why it could not start the server", async () => {
    await expect(McpToolset.connect({ command: path.join(os.tmpdir(), "no-such-mcp-server") })).rejects.toThrow(
      `McpToolset could not connect to the server started by \`${path.join(os.tmpdir(), "no-such-mcp-server")}\`: spawn ${path.join(os.tmpdir(), "no-such-mcp-server")} ENOENT; check the command and that it runs an MCP server on stdio.`,
    );
    await expect(McpToolset.connect({ command: process.execPath, args: ["-e", "process.exit(3)"] }, { name: "quitter" })).rejects.toThrow(
      `McpToolset 'quitter' could not connect to the server started by \`${process.execPath} -e "process.exit(3)"\`: MCP error -32000: Connection closed; check the command and that it runs an MCP server on stdio.`,
    );
  });
});

describe("McpToolset.close", () => {
  it("leaves nothing running: a process that connected, called and closed exits on its own", async () => {
    for (const file of ["mcp.js", "toolwright.js", "testing.js"]) {
      if (!fs.existsSync(path.join(__dirname, "../../dist", file))) throw new Error(`dist/${file} is missing: run \`npm run build\` (npm test builds it before jest runs).`);
    }
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "a.txt"), "a");
    const child = spawn(process.execPath, [path.join(__dirname, "fixtures/closeAndExit.js"), dir], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let killed = false;
    const limit = setTimeout(() => ((killed = true), child.kill("SIGKILL")), 10_000);

    const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
    clearTimeout(limit);

    expect({ killed, code, stderr }).toEqual({ killed: false, code: 0, stderr: "" });
    expect(JSON.parse(stdout)).toEqual({ result: JSON.stringify({ content: "[FILE] a.txt" }), origin: { id: "c1", toolName: "list_directory", arguments: { path: dir } }, error: false });
  });
});

describe("McpToolset configuration", () => {
  const stdio = { command: process.execPath, args: [exitingServer] };
  const neither = `pass { command, args?, env?, cwd? } for a child process or { url, headers?, transport? } for an HTTP server.`;

  it.each([
    [{}, `McpToolset has a server that is neither a command nor a URL, got an object; ${neither}`],
    [{ command: "node", url: "http://127.0.0.1/mcp" }, `McpToolset has a server that is neither a command nor a URL, got an object; ${neither}`],
    [null, `McpToolset has a server that is neither a command nor a URL, got null; ${neither}`],
    [{ url: "ftp://example.com/mcp" }, `McpToolset has a server url that is not an http(s) URL, got string "ftp://example.com/mcp"; ${neither}`],
    [{ url: "not a url" }, `McpToolset has a server url that is not an http(s) URL, got string "not a url"; ${neither}`],
    [{ url: "http://127.0.0.1/mcp", transport: "websocket" }, `McpToolset has a server transport that is not "auto", "streamable-http" or "sse", got string "websocket"; ${neither}`],
    [{ command: "" }, `McpToolset has a server command that is not a non-empty string, got string ""; ${neither}`],
    [{ command: "node", args: "server.js" }, `McpToolset has a server args that are not an array of strings; ${neither}`],
    [{ command: "node", env: { PORT: 3000 } }, `McpToolset has a server env that is not an object of strings; ${neither}`],
    [{ command: "node", stderr: "pipe" }, `McpToolset has a server stderr that is not "inherit" or "ignore", got string "pipe"; ${neither}`],
  ])("refuses the server %j", async (server, message) => {
    const error = await configurationError(McpToolset.connect(server as McpServerSpec));
    expect(error.subject).toBe("McpToolset");
    expect(error.message).toBe(message);
  });

  it.each([
    [{ timeoutMs: 0 }, "McpToolset has a timeoutMs that is not a positive number of milliseconds, got number 0."],
    [{ timeoutMs: Number.NaN }, "McpToolset has a timeoutMs that is not a positive number of milliseconds, got number NaN."],
    [{ timeoutMs: "300" }, `McpToolset has a timeoutMs that is not a positive number of milliseconds, got string "300".`],
    [
      { timeout: 300 },
      "McpToolset has unknown option 'timeout'; the options are name, include, exclude, prefix, timeoutMs, maxTotalTimeoutMs, maxResultChars, sequential, confirm, tools, onToolsChanged, onLog and onWarning.",
    ],
    [{ maxTotalTimeoutMs: Infinity }, "McpToolset has a maxTotalTimeoutMs that is not a positive number of milliseconds, got number Infinity."],
    [{ maxResultChars: 1.5 }, "McpToolset has a maxResultChars that is not a whole number of characters of at least 1, got number 1.5."],
    [{ maxResultChars: 0 }, "McpToolset has a maxResultChars that is not a whole number of characters of at least 1, got number 0."],
    [{ sequential: "yes" }, `McpToolset has a sequential that is not true or false, got string "yes".`],
    [{ confirm: "destructiveHint" }, `McpToolset has a confirm that is not "destructive", "writes" or "all", got string "destructiveHint".`],
    [{ onLog: { debug: true } }, "McpToolset has an onLog that is not a function, got an object."],
    [{ onWarning: 1 }, "McpToolset has an onWarning that is not a function, got number 1."],
    [{ tools: { pid: { inputFromState: { id: "pid" } } } }, "McpToolset has tools.pid with unknown option 'inputFromState'; the options are inputsFromState, outputsToState and outputsToString."],
    [{ tools: { pid: true } }, "McpToolset has tools.pid with a value that is not an object, got boolean true; the options are inputsFromState, outputsToState and outputsToString."],
    [{ tools: [] }, "McpToolset has tools options that are not an object of { toolName: { inputsFromState?, outputsToState?, outputsToString? } }, got an array."],
    [{ include: "pid" }, `McpToolset has include that is not an array of tool names, got string "pid".`],
    [{ exclude: [1] }, "McpToolset has exclude that is not an array of tool names, got an array."],
    [{ prefix: "fs." }, `McpToolset has a prefix that is not letters, digits, '_' and '-', got string "fs.".`],
    [{ onToolsChanged: "log" }, `McpToolset has an onToolsChanged that is not a function, got string "log".`],
    [{ name: "" }, `McpToolset has a name that is not a non-empty string, got string "".`],
    [{ name: "files", timeoutMs: -1 }, "McpToolset 'files' has a timeoutMs that is not a positive number of milliseconds, got number -1."],
    [null, "McpToolset needs an options object, got null."],
  ])("refuses the options %j before starting the server", async (options, message) => {
    const error = await configurationError(McpToolset.connect(stdio, options as McpToolsetOptions));
    expect(error.message).toBe(message);
  });
});
