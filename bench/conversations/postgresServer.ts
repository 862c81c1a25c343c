// A real Postgres for the tests and the conversation store benchmark (test/helpers/postgresServer.ts
// re-exports it: the build compiles bench/ and not test/).
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A Postgres server a test or the benchmark started: its connection string, and `stop()` to end it and remove its files. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** The port it listens on (127.0.0.1 only). */
  readonly port: number;
  /** Stops the server (fast shutdown) and deletes its data directory. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, as the kernel hands one out. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * The directory of Debian's Postgres binaries: they live in /usr/lib/postgresql/<major>/bin, off the
 * PATH (the newest major when several are installed); undefined when initdb is on the PATH.
 */
function postgresBin(): string | undefined {
  const onPath = (process.env.PATH ?? "").split(":").some((dir) => dir !== "" && existsSync(join(dir, "initdb")));
  if (onPath) return undefined;
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, "bin", "initdb"))) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error("startPostgresServer: no initdb on the PATH or in /usr/lib/postgresql/*/bin; install Debian's postgresql package (.ci/run does).");
  return join(root, newest, "bin");
}

/**
 * Starts a real Postgres: `initdb` into a temp directory (trust auth, UTF8), `pg_ctl start` on a free
 * 127.0.0.1 port with its socket in that directory. Postgres refuses to run as root, so under root the
 * binaries run as the `postgres` user through runuser. `fsync: false` skips the flush to disk at
 * commit (the tests, where durability is not under test); the benchmark keeps Postgres' default.
 */
export async function startPostgresServer(options: { readonly fsync?: boolean } = {}): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), "toolwright-pg-"));
  const asRoot = process.getuid?.() === 0;
  const bin = postgresBin();
  const exec = (name: string, args: string[]) => {
    const command = bin === undefined ? name : join(bin, name);
    return asRoot ? run("runuser", ["-u", "postgres", "--", command, ...args]) : run(command, args);
  };
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, "data");
  await exec("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  await exec("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-w", "-t", "60", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${options.fsync === false ? " -c fsync=off" : ""}`, "start"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      try {
        await exec("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
