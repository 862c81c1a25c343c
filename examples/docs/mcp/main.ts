// The code of docs/mcp.md; test/docs/guideExamples.test.ts runs it, against the reference
// filesystem server (@modelcontextprotocol/server-filesystem, started by npx from node_modules) and
// the official SDK's client.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { initializeBody } from "../../../test/helpers/mcpHttpTesting";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type BlockingConfirmationStrategyOptions, ChatMessage } from "toolwright";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import "./tools.generated";
import { SupportTools, supportState, type TicketStore } from "./supportTools";
// #region client-imports
import { Agent, BlockingConfirmationStrategy } from "toolwright";
import { McpToolset } from "toolwright/mcp";
// #endregion
// #region server-imports
import { serveMcp } from "toolwright/mcp";
// #endregion

const store: TicketStore = { search: (customerId, query) => (customerId === "c-42" ? [`T-1: ${query} jam`] : []) };

/** An agent using an MCP server's tools, and toolwright's tools served over MCP. */
export async function run(): Promise<void> {
  await client();
  await server();
}

async function client(): Promise<void> {
  const notesDir = mkdtempSync(join(tmpdir(), "toolwright-notes-"));
  writeFileSync(join(notesDir, "todo.md"), "- call the printer vendor\n");
  const chatGenerator = new ScriptedChatGenerator([
    toolCallReply(["fs_list_directory", { path: notesDir }], ["fs_write_file", { path: join(notesDir, "done.md"), content: "- printer fixed\n" }]),
    ChatMessage.fromAssistant("Listed and noted."),
  ]);
  const asked: string[] = [];
  const ask: BlockingConfirmationStrategyOptions["ask"] = async ({ toolName }) => {
    asked.push(toolName);
    return { action: "confirm" };
  };
  try {
    // #region client
    const files = await McpToolset.connect(
      { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", notesDir] }, // or { url, headers }
      { prefix: "fs_", include: ["read_text_file", "list_directory", "write_file"] },
    );
    // #endregion
    let result;
    try {
      // #region client-agent
      const agent = new Agent({
        chatGenerator,
        tools: [files, new SupportTools(store)],
        stateSchema: supportState,
        // Ask a person before the server's destructive tools (by its annotations); other tools run.
        confirmationStrategies: { "*": new BlockingConfirmationStrategy({ ask, policy: files.confirmationPolicy }) },
      });
      // …
      // #endregion
      result = await agent.run({ messages: [ChatMessage.fromUser("What is in my notes? Note that the printer is fixed.")], customer_id: "c-42" });
    } finally {
      // #region client-close
      await files.close(); // ends the server's process
      // #endregion
    }
    assert.equal(result.lastMessage.text, "Listed and noted.");
    assert.deepEqual(asked, ["fs_write_file"]); // list_directory is read-only; write_file is not
    assert.match(result.messages[2]?.toolCallResult?.result ?? "", /\[FILE\] todo\.md/);
    assert.equal(readFileSync(join(notesDir, "done.md"), "utf8"), "- printer fixed\n");
    assert.deepEqual(chatGenerator.requests[0]?.tools.map((spec) => spec.name), ["fs_read_text_file", "fs_write_file", "fs_list_directory", "search_tickets"]); // the server's order
  } finally {
    rmSync(notesDir, { recursive: true, force: true });
  }
}

async function server(): Promise<void> {
  const customerOfToken = (authorization: string | undefined): string => {
    if (authorization !== "Bearer token-of-c-42") throw new Error("unknown token");
    return "c-42";
  };
  const savedPort = process.env.PORT;
  process.env.PORT = "0"; // any free port here; 3001 in the guide
  try {
    // #region server
    const server = serveMcp({
      tools: [new SupportTools(store)],            // @tool classes, defineTool functions, Tools, Toolsets
      stateSchema: supportState,
      // Who sent each HTTP request (every request, not only the first): throw to refuse it (401).
      authenticate: (request) => customerOfToken(request.headers.authorization),
      // Each session's initial state: throw to refuse the session (403).
      session: ({ principal }) => ({ customer_id: principal! }),
      cors: { allowedOrigins: ["https://app.example.com"] }, // only for browser-based clients
    });
    // await server.connectStdio();                 // as a process an MCP host launches, or
    const listening = await server.listen({ port: Number(process.env.PORT ?? 3001) }); // Streamable HTTP at /mcp; or mount server.handleHttp(req, res)
    // #endregion
    try {
      const sdk = new Client({ name: "docs-example", version: "1.0.0" });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(listening.url), { requestInit: { headers: { authorization: "Bearer token-of-c-42" } } }));
      const { tools } = await sdk.listTools();
      assert.deepEqual(tools.map((entry) => [entry.name, Object.keys(entry.inputSchema.properties ?? {})]), [["search_tickets", ["query"]]]);
      const called = await sdk.callTool({ name: "search_tickets", arguments: { query: "printer" } });
      assert.deepEqual(called.content, [{ type: "text", text: '["T-1: printer jam"]' }]);
      await sdk.close();
      const refused = await fetch(listening.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: initializeBody });
      assert.equal(refused.status, 401);
    } finally {
      await listening.close();
    }
  } finally {
    if (savedPort === undefined) delete process.env.PORT;
    else process.env.PORT = savedPort;
  }
}
