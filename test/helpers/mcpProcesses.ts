// Real MCP servers as child processes for the McpToolset tests: the reference servers from
// node_modules, and test/mcp/fixtures servers written with the official SDK. Each process is
// killed by the `stop` the caller registers, so that jest exits.
import { type ChildProcess, spawn } from "node:child_process";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

const modules = path.join(__dirname, "../../node_modules");

/** The reference servers' entry points. */
export const referenceServers = {
  everything: path.join(modules, "@modelcontextprotocol/server-everything/dist/index.js"),
  filesystem: path.join(modules, "@modelcontextprotocol/server-filesystem/dist/index.js"),
  memory: path.join(modules, "@modelcontextprotocol/server-memory/dist/index.js"),
};

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server process listening on a port. */
export interface HttpServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Kills the process (SIGKILL: no goodbye to its clients) and waits for it to exit. */
  kill(): Promise<void>;
}

/**
 * Starts `node <args>` with PORT set and waits until its output says it listens (within 15 s).
 * server-everything's `streamableHttp` mode listens on process.env.PORT at /mcp.
 */
export async function startHttpProcess(args: readonly string[], port: number, listening: RegExp): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [...args], { env: { PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 15 s: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (listening.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
