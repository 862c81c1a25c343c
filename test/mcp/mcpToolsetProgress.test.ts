// Long MCP tools that report progress, on server-everything's trigger-long-running-operation (it
// sends notifications/progress at each step when the call has a progress token), over stdio and
// Streamable HTTP.
import { Agent, ChatMessage, type StreamingChunk } from "toolwright";
import { McpToolset, type McpServerSpec, type McpToolsetOptions } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { freePort, referenceServers, startHttpProcess } from "../helpers/mcpProcesses";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
});

const stdio = async (): Promise<McpServerSpec> => ({ command: process.execPath, args: [referenceServers.everything, "stdio"], stderr: "ignore" });
const streamableHttp = async (): Promise<McpServerSpec> => {
  const server = await startHttpProcess([referenceServers.everything, "streamableHttp"], await freePort(), /listening on port/);
  closing.push(() => server.kill());
  return { url: server.url };
};

async function connect(server: McpServerSpec, options: McpToolsetOptions): Promise<McpToolset> {
  const toolset = await McpToolset.connect(server, { include: ["trigger-long-running-operation"], ...options });
  closing.push(() => toolset.close());
  return toolset;
}

async function run(toolset: McpToolset, args: Record<string, unknown>) {
  const chunks: StreamingChunk[] = [];
  const model = new ScriptedChatGenerator([toolCallReply(["trigger-long-running-operation", args, "c1"]), ChatMessage.fromAssistant("done")]);
  const result = await new Agent({ chatGenerator: model, tools: [toolset] }).run({ messages: [ChatMessage.fromUser("go")], streamingCallback: (chunk) => void chunks.push(chunk) });
  const tool = result.messages.find((message) => message.role === "tool")!.toolCallResult!;
  return { chunks, result: { result: tool.result, error: tool.error } };
}

describe.each([
  ["stdio", stdio],
  ["Streamable HTTP", streamableHttp],
])("McpToolset and a long tool reporting progress over %s", (_transport, server) => {
  it("keeps the call alive past timeoutMs while progress comes, and streams each step as a toolProgress chunk before the result", async () => {
    // 8 steps of 0.5 s: 4 s in all, more than twice the 1.5 s allowed without news.
    const toolset = await connect(await server(), { timeoutMs: 1500 });

    const { chunks, result } = await run(toolset, { duration: 4, steps: 8 });

    expect(result).toEqual({ result: "Long running operation completed. Duration: 4 seconds, Steps: 8.", error: false });
    const call = { id: "c1", toolName: "trigger-long-running-operation", arguments: { duration: 4, steps: 8 } };
    const streamed = chunks.filter((chunk) => chunk.type === "toolProgress" || chunk.type === "toolResult").map((chunk) => (chunk.type === "toolProgress" ? chunk : chunk.type));
    // The last notification comes right before the result, and the SDK may settle the call first
    // (it handles notifications a tick later than responses) and drop it: 7 or 8 steps.
    const steps = streamed.length - 1;
    expect([7, 8]).toContain(steps);
    expect(streamed).toEqual([
      ...[1, 2, 3, 4, 5, 6, 7, 8].slice(0, steps).map((progress) => ({ type: "toolProgress", index: 0, toolCall: expect.objectContaining(call), progress, total: 8 })),
      "toolResult",
    ]);
  });
});

describe("McpToolset's maxTotalTimeoutMs", () => {
  it("ends a call that keeps reporting progress once it has run for maxTotalTimeoutMs", async () => {
    const toolset = await connect(await stdio(), { timeoutMs: 2000, maxTotalTimeoutMs: 1500 });

    const { chunks, result } = await run(toolset, { duration: 20, steps: 40 });

    expect(result).toEqual({
      result: "Tool 'trigger-long-running-operation' failed: MCP server 'mcp-servers/everything' did not finish the call to 'trigger-long-running-operation' within 1500 ms (maxTotalTimeoutMs), progress notwithstanding; the server was told to cancel it.",
      error: true,
    });
    expect(chunks.filter((chunk) => chunk.type === "toolProgress").length).toBeGreaterThan(0);
  });

  it("still fails a call that reports nothing within timeoutMs", async () => {
    const toolset = await connect(await stdio(), { timeoutMs: 500 });

    // One step of 3 s: no progress before it ends.
    const { chunks, result } = await run(toolset, { duration: 3, steps: 1 });

    expect(result).toEqual({
      result: "Tool 'trigger-long-running-operation' failed: MCP server 'mcp-servers/everything' did not answer the call to 'trigger-long-running-operation' within 500 ms (timeoutMs); the server was told to cancel it.",
      error: true,
    });
    expect(chunks.filter((chunk) => chunk.type === "toolProgress")).toEqual([]);
  });
});
