// A real redis-server on a free 127.0.0.1 port, for the toolwright/bullmq tests (test/bullmq) and the
// cluster benchmarks: each starts its own and stops it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";

export interface RedisServer {
  readonly host: string;
  readonly port: number;
  stop(): Promise<void>;
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

/** Starts `redis-server` (the Debian package: `apt-get install -y redis-server`) with no persistence. */
export async function startRedis(): Promise<RedisServer> {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed; install it (apt-get install -y redis-server, as .ci/run does) to run the toolwright/bullmq tests and the cluster benchmarks.");
  }
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "yes"], { stdio: ["ignore", "pipe", "pipe"] });
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
  return {
    host: "127.0.0.1",
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
