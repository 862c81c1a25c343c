// McpToolset over Streamable HTTP when the server's process is killed and started again on the
// same port: server-everything (which answers a session it does not know with 400, as the SDK's
// example servers do) and a server on the SDK that answers 404 (the spec's answer).
import * as path from "node:path";
import { Agent, type AgentResult, ChatMessage, type StateSchema } from "toolwright";
import { McpToolset, type McpToolsetOptions } from "toolwright/mcp";
import { ScriptedChatGenerator, toolCallReply } from "toolwright/testing";
import { freePort, type HttpServerProcess, referenceServers, startHttpProcess } from "../helpers/mcpProcesses";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close().catch(() => undefined);
});

async function start(args: readonly string[], port: number): Promise<HttpServerProcess> {
  const server = await startHttpProcess(args, port, /listening on port/);
  closing.push(() => server.kill());
  return server;
}

async function runCall(toolset: McpToolset, name: string, args: Record<string, unknown>): Promise<{ result: string; error: boolean }> {
  const model = new ScriptedChatGenerator([toolCallReply([name, args, "c1"]), ChatMessage.fromAssistant("done")]);
  const result: AgentResult<StateSchema> = await new Agent({ chatGenerator: model, tools: [toolset] }).run({ messages: [ChatMessage.fromUser("go")] });
  const message = result.messages.find((m) => m.role === "tool")!;
  return { result: message.toolCallResult!.result, error: message.toolCallResult!.error };
}

const servers = [
  { kind: "server-everything (400 to a stale session)", args: [referenceServers.everything, "streamableHttp"], name: "mcp-servers/everything", echo: (text: string) => `Echo: ${text}` },
  { kind: "an SDK server that answers 404 to a stale session", args: [path.join(__dirname, "fixtures/httpServer404.js")], name: "spec-server", echo: (text: string) => text },
];

describe.each(servers)("McpToolset when $kind restarts", ({ args, name, echo }) => {
  it("says the server could not be reached while it is down, and the next call after the restart goes through on a new session", async () => {
    const port = await freePort();
    let server = await start(args, port);
    const changes: string[] = [];
    const options: McpToolsetOptions = { include: ["echo"], onToolsChanged: (change) => void changes.push(change.error ? `error: ${change.error.message}` : change.tools.map((tool) => tool.name).join(",")) };
    const toolset = await McpToolset.connect({ url: server.url }, options);
    closing.push(() => toolset.close());
    expect(toolset.name).toBe(name);
    expect(await runCall(toolset, "echo", { message: "before" })).toEqual({ result: echo("before"), error: false });

    await server.kill();
    const refused = `fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`;
    expect(await runCall(toolset, "echo", { message: "while down" })).toEqual({
      result: `Tool 'echo' failed: MCP server '${name}' could not be reached for the call to 'echo' (${refused}); the call did not run. Check that the server is up; the next call tries again.`,
      error: true,
    });
    await expect(toolset.refresh()).rejects.toThrow(`McpToolset '${name}' could not read the server's tools: ${refused}`);

    server = await start(args, port);
    // The old session id is unknown to the new process: it is refused (400 or 404), a new session
    // is opened and the call is sent again on it.
    expect(await runCall(toolset, "echo", { message: "after" })).toEqual({ result: echo("after"), error: false });

    // refresh() also finds its way back after another restart.
    await server.kill();
    server = await start(args, port);
    await toolset.refresh();
    expect(changes.at(-1)).toBe("echo");
    expect(changes).toContain(`error: McpToolset '${name}' could not read the server's tools: ${refused}`);
  });
});
