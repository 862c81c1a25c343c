// McpServerError against real processes: a server command that does not exist, and the reference
// memory server (from node_modules) behind a toolset that was closed.
import * as os from "node:os";
import * as path from "node:path";
import { Agent, ChatMessage, ProviderError, ToolInvocationError, ToolwrightError } from "toolwright";
import { McpServerError, McpToolError, McpToolset } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { useMcpCleanup } from "../helpers/mcpCleanup";
import { referenceServers } from "../helpers/mcpProcesses";

const { connect, tempDir } = useMcpCleanup("toolwright-mcp-error-");

describe("McpServerError", () => {
  it("is the ProviderError McpToolset.connect throws when the server cannot be started", async () => {
    const command = path.join(os.tmpdir(), "no-such-mcp-server");

    const error = await McpToolset.connect({ command }, { name: "files" }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(error).toBeInstanceOf(McpServerError);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toBeInstanceOf(ToolwrightError);
    expect((error as McpServerError).name).toBe("McpServerError");
    expect((error as McpServerError).subject).toBe("McpToolset 'files'");
    expect((error as McpServerError).message).toBe(`McpToolset 'files' could not connect to the server started by \`${command}\`: spawn ${command} ENOENT; check the command and that it runs an MCP server on stdio.`);
    expect((error as McpServerError).cause).toMatchObject({ code: "ENOENT" });
  });

  it("is what refresh throws, and a raised call's cause, once the toolset is closed", async () => {
    const memory = await connect({ command: process.execPath, args: [referenceServers.memory], env: { MEMORY_FILE_PATH: path.join(tempDir(), "memory.jsonl") }, stderr: "ignore" }, { name: "memory", include: ["read_graph"] });
    const agent = new Agent({
      chatGenerator: new ScriptedChatGenerator([toolCallReply(["read_graph", {}, "c1"])]),
      tools: [memory],
      raiseOnToolInvocationFailure: true,
    });
    await memory.close();

    const refreshed = await memory.refresh().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    const ran = await agent.run({ messages: [ChatMessage.fromUser("What do you remember?")] }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );

    expect(refreshed).toBeInstanceOf(McpServerError);
    expect((refreshed as McpServerError).message).toBe("McpToolset 'memory' could not read the server's tools: McpToolset 'memory' is closed; connect a new McpToolset.");
    expect((refreshed as McpServerError).cause).toBeInstanceOf(McpServerError);
    expect(ran).toBeInstanceOf(ToolInvocationError);
    expect((ran as ToolInvocationError).message).toBe("Tool 'read_graph' failed: McpToolset 'memory' is closed; connect a new McpToolset.");
    expect((ran as ToolInvocationError).cause).toBeInstanceOf(McpServerError);
    expect((ran as ToolInvocationError).cause).toBeInstanceOf(ProviderError);
  });
});

describe("McpToolError", () => {
  it("is a ProviderError", () => {
    const error = new McpToolError("MCP server 'files' reported that tool 'read' failed, without a message.");

    expect(error).toBeInstanceOf(ProviderError);
    expect(error.name).toBe("McpToolError");
    expect(error.message).toBe("MCP server 'files' reported that tool 'read' failed, without a message.");
  });
});
