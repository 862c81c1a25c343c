// Starts a redis-server like bench/cluster/redis.ts (which the tests share); kept here so that the
// example reads and copies on its own, as every example does, without reaching into bench/.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import type { RedisOptions } from "ioredis";

/** A Redis the example's processes share: a redis-server started here, or the one REDIS_URL names. */
export interface RedisServer {
  /** `redis://host:port`, handed to the replicas and workers in their environment. */
  readonly url: string;
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

/**
 * Starts `redis-server` (Debian: `apt-get install -y redis-server`; macOS: `brew install redis`) on
 * a free 127.0.0.1 port, without persistence: the example's runs need not outlive it. A production
 * Redis for toolwright/bullmq runs with `appendonly yes` and `maxmemory-policy noeviction`.
 */
export async function startRedis(): Promise<RedisServer> {
  if (spawnSync("redis-server", ["--version"]).error) {
    throw new Error("redis-server is not installed; install it (apt-get install -y redis-server, or brew install redis), or set REDIS_URL to a Redis to use.");
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
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** ioredis options from a `redis://` or `rediss://` URL (user, password and database number included). */
export function connectionFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got ${parsed.protocol}`);
  const db = parsed.pathname.replace(/^\//, "");
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(db && { db: Number(db) }),
    ...(parsed.protocol === "rediss:" && { tls: {} }),
  };
}
