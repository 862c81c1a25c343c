// The MCP server of the mcp section (issue #13): serveMcp with one trivial tool, `echo`, and
// `server_stats` (a forced gc(), then this process's memory, its CPU time so far and its open HTTP
// sessions):
//   node --expose-gc dist/bench/mcp/echoServer.js stdio   one session over stdin/stdout (McpToolset launches it)
//   node --expose-gc dist/bench/mcp/echoServer.js http    Streamable HTTP on a free port; prints its URL,
//                                                          exits when its stdin ends (the parent ends it, or dies)
import { Tool } from "toolwright";
import { type McpToolServer, serveMcp } from "toolwright/mcp";
import { echoTool } from "./echoTool";

const server: McpToolServer = serveMcp({
  name: "bench-echo",
  tools: [
    echoTool(),
    new Tool({
      name: "server_stats",
      description: "The server's memory after a forced gc, its CPU time so far (µs), and its open HTTP sessions.",
      parameters: { type: "object", properties: {} },
      function: (): { rss: number; heapUsed: number; cpuMicros: number; sessions: number } => {
        (globalThis as { gc?: () => void }).gc?.();
        const { rss, heapUsed } = process.memoryUsage();
        const { user, system } = process.cpuUsage();
        return { rss, heapUsed, cpuMicros: user + system, sessions: server.sessionCount };
      },
    }),
  ],
});

if (require.main === module) {
  if (process.argv[2] === "http") {
    void server.listen().then(({ url, close }) => {
      console.log(url);
      process.stdin.resume();
      process.stdin.once("end", () => void close().then(() => process.exit(0)));
    });
  } else {
    server.connectStdio().catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  }
}
