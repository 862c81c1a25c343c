import { type ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { Agent, ChatMessage, type ChatGenerator, type ChatGeneratorRequest, type ChatGeneratorResponse, type ToolSource } from "toolwright";
import { McpToolset, type McpServerSpec } from "toolwright/mcp";
import { fmt, median } from "../measure";
import { benchMcpMedia } from "./benchMcpMedia";
import { echoTool } from "./echoTool";

/** Tool calls per Agent run (one per step); runs are repeated for the counts below. */
const callsPerRun = 100;
/** Per-call figures: each mode makes this many calls per round; the first round is not counted. */
const callsPerRound = 1_000;
const perCallRounds = 2;
/** Calls before the first memory reading. */
const warmupCalls = 1_000;
/** Connects of the connect-time figure, after one unmeasured. */
const connects = 10;
/** Calls between two memory readings of the leak figure, and batches of them (after `warmupCalls` unmeasured). */
const leakCalls = 10_000;
const leakBatches = 2;

const serverScript = path.join(__dirname, "echoServer.js");
/** The echo server as McpToolset launches it: a child process spoken to over stdio. */
const stdioServer = { command: process.execPath, args: ["--expose-gc", serverScript, "stdio"] } as const;

/**
 * A model that costs nothing: it asks for one call of `toolName` per step until `calls` tool results
 * are in the history, then answers text, and notes when each request came. The time between two
 * requests of a run is one step: the Agent's work and one tool call.
 */
class TimedCallsModel implements ChatGenerator {
  stamps: number[] = [];

  constructor(
    readonly calls: number,
    readonly toolName = "echo",
    readonly args: Record<string, unknown> = { text: "ping" },
  ) {}

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    this.stamps.push(performance.now());
    let results = 0;
    for (const message of request.messages) if (message.role === "tool") results += 1;
    if (results >= this.calls) return { replies: [ChatMessage.fromAssistant("done")] };
    return { replies: [ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: `c${results + 1}`, toolName: this.toolName, arguments: this.args }] })] };
  }
}

/** Runs Agent runs of `callsPerRun` echo calls until `calls` calls were made; resolves with each step's time in µs. */
async function agentSteps(tools: readonly ToolSource[], calls: number): Promise<number[]> {
  const model = new TimedCallsModel(callsPerRun);
  const agent = new Agent({ chatGenerator: model, tools, maxAgentSteps: callsPerRun + 1 });
  const steps: number[] = [];
  for (let done = 0; done < calls; done += callsPerRun) {
    model.stamps = [];
    const result = await agent.run({ messages: [ChatMessage.fromUser("go")] });
    const failed = result.messages.find((m) => m.toolCallResult?.error);
    if (failed) throw new Error(`an echo call failed: ${failed.toolCallResult!.result}`);
    if (result.exitReason !== "text" || result.stepCount !== callsPerRun + 1) throw new Error(`an echo run ended with ${result.exitReason} after ${result.stepCount} steps`);
    for (let i = 0; i < callsPerRun; i++) steps.push((model.stamps[i + 1]! - model.stamps[i]!) * 1000);
  }
  return steps;
}

/** The same calls with the MCP SDK's Client alone (no Agent, no toolwright on this side); µs per call. */
async function sdkCalls(client: Client, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await client.callTool({ name: "echo", arguments: { text: "ping" } });
    if (result.isError) throw new Error(`an SDK echo call failed: ${JSON.stringify(result.content)}`);
    times.push((performance.now() - start) * 1000);
  }
  return times;
}

/** What the server says about itself (memory after its gc, open sessions), asked through the toolset. */
async function serverStats(toolset: McpToolset): Promise<ProcessStats & { sessions: number }> {
  const agent = new Agent({ chatGenerator: new TimedCallsModel(1, "server_stats", {}), tools: [toolset] });
  const result = await agent.run({ messages: [ChatMessage.fromUser("stats")] });
  const answer = result.messages.find((m) => m.role === "tool")!.toolCallResult!;
  if (answer.error) throw new Error(`server_stats failed: ${answer.result}`);
  return JSON.parse(answer.result) as ProcessStats & { sessions: number };
}

/** A process's memory after a forced gc (bytes), and its CPU time so far (user + system, all threads, µs). */
interface ProcessStats {
  readonly rss: number;
  readonly heapUsed: number;
  readonly cpuMicros: number;
}

/** This process's stats (CPU time read before the gc). */
function ownStats(): ProcessStats {
  const { user, system } = process.cpuUsage();
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed, cpuMicros: user + system };
}

interface HttpServerProcess {
  readonly url: string;
  stop(): Promise<void>;
}

/** The echo server over Streamable HTTP in a child process of its own; stops when its stdin ends. */
async function startHttpServer(): Promise<HttpServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--expose-gc", serverScript, "http"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    void exited.then((code) => reject(new Error(`the HTTP echo server exited with ${code} before it printed its URL`)));
  });
  return {
    url,
    stop: async () => {
      child.stdin!.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the HTTP echo server exited with ${code}`);
    },
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

const figure = (values: readonly number[], unit: string, decimals = 1) => `median ${fmt(median(values), decimals)} ${unit}, p95 ${fmt(percentile(values, 0.95), decimals)} ${unit}`;
const mib = (bytes: number) => `${bytes >= 0 ? "+" : ""}${fmt(bytes / 2 ** 20, 1)} MiB`;

/**
 * What MCP costs (issue #13): a trivial tool called by an Agent in process, through McpToolset over
 * stdio and over Streamable HTTP (a serveMcp server in a child process), and with the MCP SDK's
 * Client alone; the time McpToolset.connect takes to launch a server; and memory across 10,000
 * calls on both sides.
 */
export async function benchMcp(log: (line: string) => void = console.log): Promise<void> {
  const warnings = countListenerWarnings();
  const http = await startHttpServer();
  const httpServer: McpServerSpec = { url: http.url, transport: "streamable-http" };
  try {
    await perCall(httpServer, http.url, log);
    await connectTime(httpServer, log);
    await memory(stdioServer, "stdio", log);
    await memory(httpServer, "Streamable HTTP", log);
    await benchMcpMedia(log);
  } finally {
    await http.stop();
    const counts = warnings.stop();
    log(`mcp warnings, MaxListenersExceededWarning (over 10 'abort' listeners on one AbortSignal), counted instead of printed: ${[...counts].map(([where, n]) => `${n.toLocaleString("en-US")} from ${where}`).join(", ") || "none"}`);
  }
}

/**
 * Counts the MaxListenersExceededWarnings this process emits until `stop()`, by where the listeners
 * are added, instead of printing each (thousands of them: see BENCHMARKS.md); other warnings are
 * printed as usual.
 */
function countListenerWarnings(): { stop(): Map<string, number> } {
  const counts = new Map<string, number>();
  const printers = process.listeners("warning");
  const onWarning = (warning: Error) => {
    if (warning.name !== "MaxListenersExceededWarning") return printers.forEach((print) => print(warning));
    const stack = warning.stack ?? "";
    const where = /undici/.test(stack)
      ? "undici's fetch (the SDK's Streamable HTTP client transport gives every request one signal)"
      : /shared[\\/]protocol\.js/.test(stack)
        ? "the SDK's Protocol.request (McpToolset passes the run's signal to every call; Node warns once per signal)"
        : "elsewhere";
    counts.set(where, (counts.get(where) ?? 0) + 1);
  };
  process.removeAllListeners("warning");
  process.on("warning", onWarning);
  return {
    stop: () => {
      process.off("warning", onWarning);
      for (const print of printers) process.on("warning", print);
      return counts;
    },
  };
}

// ---- 1. per call -------------------------------------------------------------------------------

/** One way of calling echo: `calls` sequential calls, each one's time in µs. */
interface CallMode {
  readonly label: string;
  readonly calls: (count: number) => Promise<number[]>;
  readonly close: () => Promise<void>;
}

async function agentMode(label: string, tools: readonly ToolSource[], close: () => Promise<void> = async () => {}): Promise<CallMode> {
  return { label, calls: (count) => agentSteps(tools, count), close };
}

async function sdkMode(label: string, transport: Transport): Promise<CallMode> {
  const client = new Client({ name: "bench", version: "0" });
  await client.connect(transport);
  return {
    label,
    calls: (count) => sdkCalls(client, count),
    close: async () => {
      // End the HTTP session on the server too, as McpToolset's close() does.
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession();
      await client.close();
    },
  };
}

async function perCall(httpServer: McpServerSpec, url: string, log: (line: string) => void): Promise<void> {
  const stdioToolset = await McpToolset.connect(stdioServer, { include: ["echo"] });
  const httpToolset = await McpToolset.connect(httpServer, { include: ["echo"] });
  const modes = [
    await agentMode("Agent step with the tool in process", [echoTool()]),
    await agentMode("Agent step through McpToolset over stdio (a serveMcp child process)", [stdioToolset], () => stdioToolset.close()),
    await agentMode("Agent step through McpToolset over Streamable HTTP (a serveMcp child process, localhost)", [httpToolset], () => httpToolset.close()),
    await sdkMode("the MCP SDK's Client.callTool alone over stdio (the same server, another process)", new StdioClientTransport({ ...stdioServer, args: [...stdioServer.args] })),
    await sdkMode("the MCP SDK's Client.callTool alone over Streamable HTTP (the same server process)", new StreamableHTTPClientTransport(new URL(url))),
  ];
  try {
    // Rounds of each mode in turn, so that drift (other load, the servers' JIT) touches them all alike.
    const times = modes.map((): number[] => []);
    for (let round = 0; round < perCallRounds + 1; round++) {
      for (const [i, mode] of modes.entries()) {
        const roundTimes = await mode.calls(callsPerRound);
        if (round > 0) times[i]!.push(...roundTimes);
      }
    }
    const label = `mcp per call, ${(perCallRounds * callsPerRound).toLocaleString("en-US")} sequential echo calls in ${perCallRounds} rounds after one of ${callsPerRound.toLocaleString("en-US")}`;
    for (const [i, mode] of modes.entries()) log(`${label}, ${mode.label}: ${figure(times[i]!, "µs")}`);
  } finally {
    for (const mode of modes) await mode.close();
  }
}

// ---- 2. connect time ---------------------------------------------------------------------------

async function connectTime(httpServer: McpServerSpec, log: (line: string) => void): Promise<void> {
  const nodeStart: number[] = [];
  for (let i = 0; i <= connects; i++) {
    const start = performance.now();
    await new Promise<void>((resolve, reject) => spawn(process.execPath, ["-e", "0"], { stdio: "ignore" }).once("exit", () => resolve()).once("error", reject));
    if (i > 0) nodeStart.push(performance.now() - start);
  }
  for (const [name, spec] of [
    ["stdio (spawn + initialize + tools/list)", stdioServer],
    ["Streamable HTTP (initialize + tools/list; server already up)", httpServer],
  ] as const) {
    const connect: number[] = [];
    const close: number[] = [];
    for (let i = 0; i <= connects; i++) {
      const start = performance.now();
      const toolset = await McpToolset.connect(spec);
      const connected = performance.now();
      await toolset.close();
      if (i === 0) continue;
      connect.push(connected - start);
      close.push(performance.now() - connected);
    }
    log(`mcp connect, McpToolset.connect over ${name}, ${connects} after 1: ${figure(connect, "ms")}; close() ${figure(close, "ms")}`);
  }
  log(`mcp connect, for reference: spawn of \`node -e 0\` until it exits: ${figure(nodeStart, "ms")}`);
  const probe = await McpToolset.connect(httpServer);
  try {
    const { sessions } = await serverStats(probe);
    log(`mcp connect, HTTP sessions the server still holds after ${connects + 1} McpToolset connect + close() (and this one): ${sessions}`);
  } finally {
    await probe.close();
  }
}

// ---- 3. memory ---------------------------------------------------------------------------------

async function memory(spec: McpServerSpec, name: string, log: (line: string) => void): Promise<void> {
  const toolset = await McpToolset.connect(spec);
  try {
    await agentSteps([toolset], warmupCalls);
    const readings = [{ client: ownStats(), server: await serverStats(toolset), seconds: 0 }];
    for (let batch = 0; batch < leakBatches; batch++) {
      const start = performance.now();
      await agentSteps([toolset], leakCalls);
      const seconds = (performance.now() - start) / 1000;
      readings.push({ client: ownStats(), server: await serverStats(toolset), seconds });
    }
    const batches = readings.slice(1).map((reading, i) => ({ after: reading, before: readings[i]! }));
    const growth = (side: "client" | "server", key: "rss" | "heapUsed") => batches.map(({ after, before }) => mib(after[side][key] - before[side][key])).join(" / ");
    const cpu = (side: "client" | "server") => batches.map(({ after, before }) => fmt((after[side].cpuMicros - before[side].cpuMicros) / leakCalls, 0)).join(" / ");
    const last = readings.at(-1)!;
    log(
      `mcp memory, McpToolset over ${name}, ${leakBatches} batches of ${leakCalls.toLocaleString("en-US")} echo calls (${batches.map(({ after }) => fmt(after.seconds, 1)).join(" / ")} s), growth per batch after a forced gc: ` +
        `this process rss ${growth("client", "rss")}, heap used ${growth("client", "heapUsed")}; the server process rss ${growth("server", "rss")}, heap used ${growth("server", "heapUsed")} ` +
        `(at the end: this process rss ${fmt(last.client.rss / 2 ** 20, 0)} MiB, heap ${fmt(last.client.heapUsed / 2 ** 20, 1)} MiB; the server rss ${fmt(last.server.rss / 2 ** 20, 0)} MiB, heap ${fmt(last.server.heapUsed / 2 ** 20, 1)} MiB)`,
    );
    log(`mcp CPU per call, McpToolset over ${name}, the same batches (all threads): this process ${cpu("client")} µs, the server process ${cpu("server")} µs`);
  } finally {
    await toolset.close();
  }
}
