import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { createInterface } from "node:readline";
import { Pool } from "pg";
import { type ConversationStore, migrateConversationStore, postgresConversationStore, redisConversationStore } from "toolwright/conversations";
import { type PostgresServer, startPostgresServer } from "../helpers/postgresServer";
import { type RedisServer, startRedis } from "../support/redisServer";
import { runMessages } from "./appendProcess";

jest.setTimeout(180_000);

const script = path.join(__dirname, "appendProcess.js");
const root = path.join(__dirname, "..", "..");

interface Appender {
  readonly name: string;
  readonly child: ChildProcess;
  readonly lines: string[];
  /** Resolves when a printed line matches. */
  waitFor(pattern: RegExp): Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// Starts appendProcess.js on the built package; it waits for `go` on stdin once it printed `ready`.
async function startAppender(env: Record<string, string>): Promise<Appender> {
  if (!existsSync(path.join(root, "dist/conversations.js"))) throw new Error("dist/conversations.js is missing; run `npm run build` first (npm test does).");
  const child = spawn(process.execPath, [script], { cwd: root, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters]) if (w.pattern.test(line)) waiters.splice(waiters.indexOf(w), 1) && w.resolve();
  };
  createInterface({ input: child.stdout! }).on("line", onLine);
  createInterface({ input: child.stderr! }).on("line", onLine);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const appender: Appender = {
    name: env.WORKER!,
    child,
    lines,
    exited,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        if (lines.some((l) => pattern.test(l))) return resolve();
        const timer = setTimeout(() => reject(new Error(`${env.WORKER} printed no line matching ${pattern} within 60 s:\n${lines.join("\n")}`)), 60_000);
        waiters.push({ pattern, resolve: () => (clearTimeout(timer), resolve()) });
        void exited.then(({ code, signal }) => (clearTimeout(timer), reject(new Error(`${env.WORKER} exited (${code ?? signal}) before printing ${pattern}:\n${lines.join("\n")}`))));
      }),
  };
  await appender.waitFor(/^ready$/);
  return appender;
}

interface Backend {
  readonly env: Record<string, string>;
  readonly store: ConversationStore;
}

/** What a thread holds, read as runs: each run's messages in order, where they start, and how many. */
function runsOf(texts: readonly string[]): Map<string, { firstSeq: number; parts: number }> {
  const runs = new Map<string, { firstSeq: number; parts: number }>();
  let seq = 1;
  while (seq <= texts.length) {
    const head = /^(\S+) 1\/(\d+) /.exec(texts[seq - 1]!);
    if (head === null) throw new Error(`seq ${seq} does not start a run: ${texts[seq - 1]!.slice(0, 40)}`);
    const [, runId, partsText] = head;
    const parts = Number(partsText);
    for (let k = 1; k <= parts; k++) {
      if (!texts[seq - 1 + k - 1]?.startsWith(`${runId} ${k}/${parts} `)) throw new Error(`run ${runId} is not whole or not contiguous at seq ${seq + k - 1}`);
    }
    if (runs.has(runId!)) throw new Error(`run ${runId} is in the thread twice`);
    runs.set(runId!, { firstSeq: seq, parts });
    seq += parts;
  }
  return runs;
}

function appendedLines(appender: Appender): { runId: string; version: number; firstSeq: number }[] {
  return appender.lines.flatMap((line) => {
    const m = /^appended (\S+) (\d+) (\d+) \d+$/.exec(line);
    return m === null ? [] : [{ runId: m[1]!, version: Number(m[2]), firstSeq: Number(m[3]) }];
  });
}

const runs = 30;

describe.each([
  [
    "redisConversationStore",
    async (): Promise<Backend & { stop(): Promise<void> }> => {
      const server: RedisServer = await startRedis();
      const store = redisConversationStore({ connection: { host: server.host, port: server.port } });
      return { env: { REDIS_PORT: String(server.port) }, store, stop: async () => (await store.close(), await server.stop()) };
    },
  ],
  [
    "postgresConversationStore",
    async (): Promise<Backend & { stop(): Promise<void> }> => {
      const server: PostgresServer = await startPostgresServer();
      const pool = new Pool({ connectionString: server.url, max: 2 });
      await migrateConversationStore({ pool });
      return { env: { DATABASE_URL: server.url }, store: postgresConversationStore({ pool }), stop: async () => (await pool.end(), await server.stop()) };
    },
  ],
])("%s appended to from two processes", (_name, open) => {
  let backend: Backend & { stop(): Promise<void> };
  const started: Appender[] = [];
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(async () => {
    for (const a of started) if (a.child.exitCode === null && a.child.signalCode === null) a.child.kill("SIGKILL");
    await backend?.stop();
  });
  const start = async (threadId: string, worker: string, env: Record<string, string> = {}) => {
    const appender = await startAppender({ ...backend.env, THREAD_ID: threadId, WORKER: worker, RUNS: String(runs), ...env });
    started.push(appender);
    return appender;
  };

  it("numbers the appends 1 to the total with no gap, keeps each run whole and once, and types every conflict", async () => {
    const threadId = `two-${process.pid}`;
    const appenders = [await start(threadId, "a"), await start(threadId, "b")];
    for (const a of appenders) a.child.stdin!.end("go\n");
    const exits = await Promise.all(appenders.map((a) => a.exited));
    expect(exits.map((e, i) => ({ ...e, output: e.code === 0 ? "" : appenders[i]!.lines.join("\n") }))).toEqual([{ code: 0, signal: null, output: "" }, { code: 0, signal: null, output: "" }]);

    const reported = appenders.flatMap(appendedLines);
    expect(reported.map((r) => r.version).sort((x, y) => x - y)).toEqual(Array.from({ length: 2 * runs }, (_, i) => i + 1));
    const thread = await backend.store.load(threadId);
    expect(thread.version).toBe(2 * runs);
    const inThread = runsOf(thread.messages.map((m) => m.text ?? ""));
    expect([...inThread.keys()].sort()).toEqual(["a", "b"].flatMap((w) => Array.from({ length: runs }, (_, i) => `${w}-${i}`)).sort());
    for (const r of reported) expect(inThread.get(r.runId)?.firstSeq).toBe(r.firstSeq);
    // Each retried run id (every fifth run) reported the first append's version and seq, so nothing ran twice.
    expect(appenders.flatMap((a) => a.lines.filter((l) => l.startsWith("retried ")))).toHaveLength((2 * runs) / 5);
    const conflicts = appenders.flatMap((a) => a.lines.filter((l) => l.startsWith("conflict ")));
    for (const line of conflicts) expect(line).toMatch(/^conflict [ab]-\d+ \d+ \d+$/);
    console.log(`${_name}: ${conflicts.length} typed conflicts over ${2 * runs} runs from two processes`);
  });

  it("holds only whole runs after a process is SIGKILLed in the middle of its appends, and the lost run appends once when resumed", async () => {
    const threadId = `killed-${process.pid}`;
    const survivor = await start(threadId, "s");
    // Large messages, so that the kill is likely to land while an append is on the wire.
    const victim = await start(threadId, "v", { MESSAGE_BYTES: String(256 * 1024) });
    survivor.child.stdin!.end("go\n");
    victim.child.stdin!.end("go\n");
    await victim.waitFor(/^appended v-3 /);
    victim.child.kill("SIGKILL");
    expect(await victim.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(await survivor.exited).toMatchObject({ code: 0 });

    const thread = await backend.store.load(threadId);
    const inThread = runsOf(thread.messages.map((m) => m.text ?? ""));
    expect(thread.version).toBe(inThread.size);
    for (let i = 0; i < runs; i++) expect(inThread.has(`s-${i}`)).toBe(true);
    const confirmed = appendedLines(victim).map((r) => r.runId);
    for (const runId of confirmed) expect(inThread.has(runId)).toBe(true);
    // The run the kill interrupted (and any after it): resumed with the same run id and messages,
    // each lands once — appended now, or recognised as already stored.
    const victimRuns = [...inThread.keys()].filter((id) => id.startsWith("v-")).length;
    const resumed = await backend.store.append(threadId, `v-${confirmed.length}`, runMessages("v", confirmed.length, 256 * 1024));
    expect(resumed.appended).toBe(victimRuns === confirmed.length);
    const after = await backend.store.load(threadId);
    const runsAfter = runsOf(after.messages.map((m) => m.text ?? ""));
    expect(runsAfter.has(`v-${confirmed.length}`)).toBe(true);
    expect(after.version).toBe(runsAfter.size);
    console.log(`${_name}: killed after ${confirmed.length} confirmed runs; the interrupted run had ${victimRuns > confirmed.length ? "landed whole" : "not landed"}`);
  });
});
