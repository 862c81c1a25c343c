import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Agent, ChatMessage } from "toolwright";
import { McpToolset } from "toolwright/mcp";
import { fmt, median } from "../measure";

const calls = 40;
const imageBytes = 300_000;
const filesystemServer = path.join(__dirname, "../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/**
 * A 300 KB image read with server-filesystem's `read_media_file` (which puts the base64 data in
 * `content` and in `structuredContent`): what reaches the model through McpToolset, against the
 * size of the server's answer, and the time per call against the MCP SDK's Client alone.
 */
export async function benchMcpMedia(log: (line: string) => void): Promise<void> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "toolwright-bench-media-")));
  const image = path.join(dir, "photo.png");
  fs.writeFileSync(image, randomBytes(imageBytes));
  const server = { command: process.execPath, args: [filesystemServer, dir], stderr: "ignore" as const };
  const toolset = await McpToolset.connect(server, { include: ["read_media_file"] });
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(new StdioClientTransport(server));
  try {
    const sdkTimes: number[] = [];
    let answerChars = 0;
    for (let i = 0; i < calls; i++) {
      const start = performance.now();
      const answer = await client.callTool({ name: "read_media_file", arguments: { path: image } });
      sdkTimes.push((performance.now() - start) * 1000);
      answerChars = JSON.stringify(answer).length;
    }
    const script = Array.from({ length: calls }, (_, i) => ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `c${i}`, toolName: "read_media_file", arguments: { path: image } }] }));
    let step = 0;
    const agent = new Agent({
      chatGenerator: { run: async () => ({ replies: [script[step++] ?? ChatMessage.fromAssistant("done")] }) },
      tools: [toolset],
      maxAgentSteps: calls + 1,
    });
    const stamps: number[] = [];
    const result = await agent.run({ messages: [ChatMessage.fromUser("look")], streamingCallback: (chunk) => chunk.type === "toolResult" && stamps.push(performance.now()) });
    const modelText = result.messages.find((m) => m.role === "tool")!.toolCallResult!.result;
    const agentTimes = stamps.slice(1).map((stamp, i) => (stamp - stamps[i]!) * 1000);
    log(
      `mcp media, read_media_file of a ${fmt(imageBytes / 1000)} KB image (stdio): the server answers ${answerChars.toLocaleString("en-US")} characters; ` +
        `the model gets ${modelText.length} (${JSON.stringify(modelText.slice(0, 60))}…); ` +
        `${fmt(median(agentTimes) / 1000)} ms per call through an Agent against ${fmt(median(sdkTimes) / 1000)} ms with the SDK's Client alone (median of ${calls})`,
    );
  } finally {
    await Promise.allSettled([toolset.close(), client.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
