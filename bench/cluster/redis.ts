// A real redis-server on a free 127.0.0.1 port, for the toolwright/bullmq tests (test/bullmq) and the
// cluster benchmarks: each starts its own and stops it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

export interface RedisServer {
  readonly host: string;
  readonly port: number;
  /** The redis-server process id (the fault tests pause and kill it). */
  readonly pid: number;
  /** Sends a signal to the redis-server process; SIGKILL resolves once it exited. */
  signal(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/** How the fault tests start Redis: on a given port (a restart), with AOF persistence in a directory. */
export interface RedisServerOptions {
  /** Default: a free port. */
  port?: number;
  /** `appendonly yes` with the AOF files in this directory (the same directory on a restart). Default: no persistence. */
  appendOnlyDir?: string;
  /**
   * With `appendOnlyDir`: when Redis fsyncs the AOF. Default `everysec` (Redis's own default), under
   * which a write Redis has acknowledged can still be lost by a kill of Redis when a slow fsync
   * made it postpone the write (up to 2 s); `always` loses none.
   */
  appendFsync?: "always" | "everysec";
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `redis-server` (the Debian package: `apt-get install -y redis-server`), with no persistence unless `appendOnlyDir` is given. */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed; install it (apt-get install -y redis-server, as .ci/run does) to run the toolwright/bullmq tests and the cluster benchmarks.");
  }
  const port = options.port ?? (await freePort());
  const persistence = options.appendOnlyDir === undefined ? ["--appendonly", "no"] : ["--appendonly", "yes", "--dir", options.appendOnlyDir, "--appendfsync", options.appendFsync ?? "everysec"];
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...persistence, "--protected-mode", "yes"], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port} within 10 s:\n${output}`)), 10_000);
    child.stdout!.on("data", (data: Buffer) => {
      output += data.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code} before it was ready:\n${output}`));
    });
  });
  child.stdout!.resume();
  const exited = () => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
  return {
    host: "127.0.0.1",
    port,
    pid: child.pid!,
    signal: async (signal) => {
      child.kill(signal);
      if (signal === "SIGKILL") await exited();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        // A paused server (a fault test's SIGSTOP) cannot act on SIGTERM until it continues.
        child.kill("SIGCONT");
        child.kill("SIGTERM");
      }),
  };
}
