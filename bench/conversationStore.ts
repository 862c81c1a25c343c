import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Pool } from "pg";
import type { ChatMessage } from "toolwright";
import { Redis } from "ioredis";
import { type ConversationStore, memoryConversationStore, migrateConversationStore, pgliteConversationStore, postgresConversationStore, redisConversationStore } from "toolwright/conversations";
import { startRedis } from "./cluster/redis";
import { startPostgresServer } from "./conversations/postgresServer";
import { sampleRun, sampleThread } from "./conversations/sampleThread";
import { fmt, median } from "./measure";

/** A store under measurement, and how to release what the bench opened for it. */
interface OpenedStore {
  readonly name: string;
  readonly store: ConversationStore;
  close(): Promise<void>;
}

const sizes = [10, 100, 1_000] as const;
type Size = (typeof sizes)[number];

// Loads: at most this many samples per size, fewer (at least 20) once the time budget is spent.
const loadSamples: Record<Size, number> = { 10: 300, 100: 150, 1_000: 40 };
// Appends: [threads of the size, appends onto each]. An append adds 4 messages, so a thread of 1,000
// takes 5 (ends at 1,020) rather than needing 50 seeded threads of 1,000 messages.
const appendPlan: Record<Size, readonly [number, number]> = { 10: [60, 1], 100: [60, 1], 1_000: [12, 5] };
const budgetMs = 3_000; // per size
const writerCounts = [8, 32] as const;
const concurrentMs = 1_500;
const warmupMs = 200;

// Precomputed runs, so that building messages is not part of what is timed.
const runs: readonly ChatMessage[][] = Array.from({ length: 64 }, (_, i) => sampleRun(1_000 + i));

/** One store's figures. */
interface StoreFigures {
  readonly name: string;
  readonly load: Record<Size, readonly number[]>;
  readonly append: Record<Size, readonly number[]>;
  readonly rates: readonly { readonly writers: number; readonly shared: boolean; readonly rate: number; readonly appends: number }[];
}

/**
 * Conversation stores (issue #31): load and append latency on threads of 10 / 100 / 1,000 realistic
 * messages, and appends per second from 8 and 32 concurrent writers, each on its own thread or all
 * on one, for the memory store, PGlite in a temp dataDir, a Postgres server of its own and a
 * redis-server of its own (no persistence: what Redis adds with AOF is the server's, not the store's).
 */
export async function benchConversationStores(log: (line: string) => void): Promise<void> {
  log(`machine: ${cpus().length} cores shared with other jobs, load average ${loadavg().map((l) => fmt(l, 2)).join(" / ")} at the start: the figures are noisy, read the shapes`);
  const figures: StoreFigures[] = [];
  for (const open of [openMemory, openPglite, openPostgres, openRedis]) {
    const opened = await open();
    try {
      figures.push(await measure(opened, log));
    } finally {
      await opened.close();
    }
  }
  for (const line of tables(figures)) log(line);
}

async function openMemory(): Promise<OpenedStore> {
  const store = memoryConversationStore();
  return { name: "memory", store, close: () => store.close() };
}

async function openPglite(): Promise<OpenedStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "toolwright-bench-pglite-"));
  const store = await pgliteConversationStore({ dataDir });
  return {
    name: "PGlite (dataDir)",
    store,
    async close() {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(): Promise<OpenedStore> {
  const server = await startPostgresServer();
  // pg's default pool size (10): 32 writers queue for a connection, as they would in an app.
  const pool = new Pool({ connectionString: server.url, max: 10 });
  try {
    await migrateConversationStore({ pool });
  } catch (error) {
    await pool.end();
    await server.stop();
    throw error;
  }
  return {
    name: "Postgres (pg Pool of 10)",
    store: postgresConversationStore({ pool }),
    async close() {
      await pool.end();
      await server.stop();
    },
  };
}

async function openRedis(): Promise<OpenedStore> {
  const server = await startRedis();
  const client = new Redis({ host: server.host, port: server.port });
  return {
    name: "Redis (one ioredis client)",
    store: redisConversationStore({ client }),
    async close() {
      client.disconnect();
      await server.stop();
    },
  };
}

async function measure({ name, store }: OpenedStore, log: (line: string) => void): Promise<StoreFigures> {
  const started = performance.now();
  await store.append("warmup", "seed", sampleThread(100, 7));
  for (let i = 0; i < 50; i++) {
    await store.load("warmup");
    await store.append("warmup", `warm-${i}`, runs[i % runs.length]!);
  }
  for (const size of sizes) await store.append(`load-${size}`, "seed", sampleThread(size, size));
  const load = await loadLatencies(name, store);
  const append = await appendLatencies(store);
  const rates: { writers: number; shared: boolean; rate: number; appends: number }[] = [];
  for (const writers of writerCounts) {
    for (const shared of [false, true]) rates.push({ writers, shared, ...(await appendRate(store, `rate-${writers}-${shared ? "one" : "own"}`, writers, shared)) });
  }
  log(`${name}: measured in ${fmt((performance.now() - started) / 1000)} s`);
  return { name, load, append, rates };
}

/**
 * Loads of the seeded threads, the sizes taken in turn so that warm-up and the machine's drift fall
 * on all of them alike: up to loadSamples per size, at least 20, then until the time budget is spent.
 */
async function loadLatencies(name: string, store: ConversationStore): Promise<Record<Size, number[]>> {
  const times: Record<Size, number[]> = { 10: [], 100: [], 1_000: [] };
  const deadline = performance.now() + budgetMs * sizes.length;
  for (let i = 0; sizes.some((size) => i < loadSamples[size]) && (i < 20 || performance.now() < deadline); i++) {
    for (const size of sizes.filter((s) => i < loadSamples[s])) {
      const start = performance.now();
      const thread = await store.load(`load-${size}`);
      times[size].push(performance.now() - start);
      if (thread.messages.length !== size) throw new Error(`${name}: thread 'load-${size}' loaded ${thread.messages.length} messages, expected ${size}.`);
    }
  }
  return times;
}

/** One run's append (4 messages) onto seeded threads of each size, the sizes taken in turn. */
async function appendLatencies(store: ConversationStore): Promise<Record<Size, number[]>> {
  const ids = (size: Size) => Array.from({ length: appendPlan[size][0] }, (_, t) => `append-${size}-${t}`);
  for (const size of sizes) for (const [t, id] of ids(size).entries()) await store.append(id, "seed", sampleThread(size, size * 1_000 + t));
  const times: Record<Size, number[]> = { 10: [], 100: [], 1_000: [] };
  const turns = Math.max(...sizes.map((size) => appendPlan[size][0] * appendPlan[size][1]));
  for (let i = 0; i < turns; i++) {
    for (const size of sizes) {
      const [threads, each] = appendPlan[size];
      if (i >= threads * each) continue;
      const id = `append-${size}-${i % threads}`;
      const round = Math.floor(i / threads);
      const start = performance.now();
      const result = await store.append(id, `run-${round}`, runs[i % runs.length]!);
      times[size].push(performance.now() - start);
      if (result.firstSeq !== size + round * 4 + 1) throw new Error(`Thread '${id}': run-${round} landed at seq ${result.firstSeq}, expected ${size + round * 4 + 1}.`);
    }
  }
  return times;
}

/**
 * `writers` loops that each append one run after another until the time is up, on a thread of
 * their own or all on one (no expectedVersion: the store applies them one after the other). Total
 * appends per second over the measured window, after a short warm-up on other threads.
 */
async function appendRate(store: ConversationStore, prefix: string, writers: number, shared: boolean): Promise<{ rate: number; appends: number }> {
  const threadOf = (phase: string, w: number) => (shared ? `${prefix}-${phase}` : `${prefix}-${phase}-${w}`);
  const drive = async (phase: string, ms: number): Promise<number> => {
    const deadline = performance.now() + ms;
    let appends = 0;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; performance.now() < deadline; i++) {
          await store.append(threadOf(phase, w), `w${w}-r${i}`, runs[(w + i) % runs.length]!);
          appends++;
        }
      }),
    );
    return appends;
  };
  await drive("warmup", warmupMs);
  const start = performance.now();
  const appends = await drive("measured", concurrentMs);
  const rate = appends / ((performance.now() - start) / 1000);
  if (shared) await checkInterleaving(store, threadOf("measured", 0), appends);
  return { rate, appends };
}

/** The shared thread holds every run once, each run's 4 messages together (user, assistant, tool, assistant). */
async function checkInterleaving(store: ConversationStore, threadId: string, appends: number): Promise<void> {
  const thread = await store.load(threadId);
  if (thread.version !== appends || thread.messages.length !== appends * 4) throw new Error(`Thread '${threadId}': version ${thread.version} and ${thread.messages.length} messages after ${appends} appends of 4.`);
  const roles = ["user", "assistant", "tool", "assistant"];
  thread.messages.forEach((message, i) => {
    if (message.role !== roles[i % 4]) throw new Error(`Thread '${threadId}': message ${i + 1} is a ${message.role} message where a run's ${roles[i % 4]} message belongs: two runs interleaved.`);
  });
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

function latency(values: readonly number[]): string {
  const decimals = median(values) < 1 ? 3 : median(values) < 10 ? 2 : 1;
  return `${fmt(median(values), decimals)} / ${fmt(percentile(values, 0.95), decimals)}`;
}

function tables(figures: readonly StoreFigures[]): string[] {
  const samples = (s: StoreFigures) => sizes.map((size) => `${s.load[size].length}/${s.append[size].length}`).join(", ");
  const rate = (s: StoreFigures, writers: number, shared: boolean) => {
    const found = s.rates.find((r) => r.writers === writers && r.shared === shared)!;
    return fmt(found.rate, 0);
  };
  return [
    "",
    "latency, ms, median / p95 (load: the whole thread; append: one run of 4 messages, user + tool call + tool result + answer)",
    "",
    "| store | load 10 | load 100 | load 1,000 | append onto 10 | onto 100 | onto 1,000 |",
    "|---|---|---|---|---|---|---|",
    ...figures.map((s) => `| ${s.name} | ${sizes.map((size) => latency(s.load[size])).join(" | ")} | ${sizes.map((size) => latency(s.append[size])).join(" | ")} |`),
    "",
    `samples (load/append at 10, 100, 1,000): ${figures.map((s) => `${s.name} ${samples(s)}`).join("; ")}`,
    "",
    `appends per second (runs of 4 messages), concurrent writers for ${fmt(concurrentMs / 1000)} s; "one thread": all on one thread, applied one after the other`,
    "",
    "| store | 8 writers, own threads | 8 writers, one thread | 32 writers, own threads | 32 writers, one thread |",
    "|---|---|---|---|---|",
    ...figures.map((s) => `| ${s.name} | ${rate(s, 8, false)} | ${rate(s, 8, true)} | ${rate(s, 32, false)} | ${rate(s, 32, true)} |`),
  ];
}

if (require.main === module) {
  benchConversationStores((line) => console.log(line)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
