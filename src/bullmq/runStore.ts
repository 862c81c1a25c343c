import type { Redis } from "ioredis";
import type { AgentSnapshot } from "../agent/snapshot";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { newRedisClient, type RunStoreOptions } from "./connection";
import type { RunEvent, RunOutcome } from "./runEvents";
import { checkName, runKeys, type RunKeys } from "./runKeys";

/** The statuses of a run record. */
export type RunStatus = "queued" | "running" | "paused" | "done" | "failed" | "cancelled";

/** A run's record as the worker reads it. */
export interface RunRecord {
  readonly status: RunStatus;
  readonly cancelRequested: boolean;
  /** What `start` was given, until the first checkpoint replaces it. */
  readonly input: StoredInput | undefined;
  /** The run options every step uses. */
  readonly options: StoredOptions;
  /** The snapshot after the last completed step. */
  readonly checkpoint: AgentSnapshot | undefined;
  /** Decisions of a resume, until the step they decide has completed. */
  readonly decisions: Record<string, ConfirmationDecision> | undefined;
}

/** The start of a run, as JSON. */
export interface StoredInput {
  readonly messages: readonly unknown[];
  readonly state: Readonly<Record<string, unknown>>;
}

/** Run options that apply to every step, as JSON. */
export interface StoredOptions {
  readonly systemPrompt?: string;
  readonly generationKwargs?: Record<string, unknown>;
  readonly tools?: readonly string[];
}

// Creates the record unless the id is taken. KEYS: record. ARGV: input, options, now.
const createScript = `
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], "status", "queued", "input", ARGV[1], "options", ARGV[2], "createdAt", ARGV[3], "leg", "0")
return 1`;

// Claims a paused run for one resume: only the first of concurrent resumes finds it paused. Each
// resume starts a new leg, whose number names its BullMQ job.
// KEYS: record, events. ARGV: decisions. Returns "ok", or the status that refused it ("" when gone).
const resumeScript = `
local status = redis.call("HGET", KEYS[1], "status")
if status ~= "paused" then return status or "" end
redis.call("HINCRBY", KEYS[1], "leg", 1)
redis.call("HSET", KEYS[1], "status", "queued", "decisions", ARGV[1])
redis.call("HDEL", KEYS[1], "pending", "outcome")
redis.call("PERSIST", KEYS[1])
redis.call("PERSIST", KEYS[2])
return "ok"`;

// Ends a leg of the run: its status, outcome and last event together, then its time to live.
// KEYS: record, events. ARGV: status, outcome, event, ttl ms, then field/value pairs to set.
// Only a queued or running run ends here: one already ended (cancelled meanwhile) stays as it is (returns 0).
// A run with a cancel request ends cancelled, whatever the step ended in: the request came first.
const finishScript = `
local status = redis.call("HGET", KEYS[1], "status")
if status ~= "running" and status ~= "queued" then return 0 end
local cancelled = redis.call("HGET", KEYS[1], "cancel") == "1"
if cancelled then
  ARGV[1] = "cancelled"
  ARGV[2] = '{"status":"cancelled"}'
  ARGV[3] = '{"type":"cancelled"}'
else
  for i = 5, #ARGV, 2 do redis.call("HSET", KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call("HSET", KEYS[1], "status", ARGV[1], "outcome", ARGV[2])
redis.call("HDEL", KEYS[1], "cancel", "decisions", "input")
redis.call("XADD", KEYS[2], "*", "e", ARGV[3])
redis.call("PEXPIRE", KEYS[1], ARGV[4])
redis.call("PEXPIRE", KEYS[2], ARGV[4])
return 1`;

// Cancels: a paused or queued-for-resume run is ended here; a running one is flagged and its worker told.
// KEYS: record, events. ARGV: channel, run id, outcome, event, ttl ms. Returns the status before.
const cancelScript = `
local status = redis.call("HGET", KEYS[1], "status")
if not status then return "" end
if status == "paused" then
  redis.call("HSET", KEYS[1], "status", "cancelled", "outcome", ARGV[3])
  redis.call("HDEL", KEYS[1], "pending", "decisions", "input")
  redis.call("XADD", KEYS[2], "*", "e", ARGV[4])
  redis.call("PEXPIRE", KEYS[1], ARGV[5])
  redis.call("PEXPIRE", KEYS[2], ARGV[5])
elseif status == "queued" or status == "running" then
  redis.call("HSET", KEYS[1], "cancel", "1")
  redis.call("PUBLISH", ARGV[1], ARGV[2])
end
return status`;

// Saves a checkpoint unless the run was cancelled (or asked to be) meanwhile. KEYS: record. ARGV: snapshot.
const checkpointScript = `
local status = redis.call("HGET", KEYS[1], "status")
if status ~= "running" or redis.call("HGET", KEYS[1], "cancel") == "1" then return 0 end
redis.call("HSET", KEYS[1], "checkpoint", ARGV[1])
redis.call("HDEL", KEYS[1], "input", "decisions")
return 1`;

interface Scripts {
  twCreate(record: string, input: string, options: string, now: string): Promise<number>;
  twResume(record: string, events: string, decisions: string): Promise<string>;
  twFinish(record: string, events: string, ...args: string[]): Promise<number>;
  twCancel(record: string, events: string, channel: string, runId: string, outcome: string, event: string, ttl: string): Promise<string>;
  twCheckpoint(record: string, snapshot: string): Promise<number>;
}

const day = 24 * 60 * 60 * 1000;

/** The run records and event streams of one queue, in Redis. Shared by RunQueue and RunWorker. */
export class RunStore {
  readonly redis: Redis;
  readonly keys: RunKeys;
  readonly queueName: string;
  readonly prefix: string;
  readonly finishedTtlMs: number;
  readonly pausedTtlMs: number;
  readonly #scripts: Scripts;

  constructor(options: RunStoreOptions, subject: string) {
    if (typeof options !== "object" || options === null || typeof options.connection !== "object" || options.connection === null) {
      throw new ConfigurationError(subject, `${subject} needs options with a connection: { connection: { host, port } } or an ioredis client, got ${describeKind(options)}.`);
    }
    this.queueName = checkName(options.name, "toolwright-runs", subject, "name");
    this.prefix = checkName(options.prefix, "toolwright", subject, "prefix");
    this.finishedTtlMs = checkTtl(options.finishedTtlMs, day, subject, "finishedTtlMs");
    this.pausedTtlMs = checkTtl(options.pausedTtlMs, 7 * day, subject, "pausedTtlMs");
    this.keys = runKeys(this.prefix, this.queueName);
    this.redis = newRedisClient(options.connection);
    this.redis.defineCommand("twCreate", { numberOfKeys: 1, lua: createScript });
    this.redis.defineCommand("twResume", { numberOfKeys: 2, lua: resumeScript });
    this.redis.defineCommand("twFinish", { numberOfKeys: 2, lua: finishScript });
    this.redis.defineCommand("twCancel", { numberOfKeys: 2, lua: cancelScript });
    this.redis.defineCommand("twCheckpoint", { numberOfKeys: 1, lua: checkpointScript });
    this.#scripts = this.redis as unknown as Scripts;
  }

  /** Creates a run's record; false when the id is taken. */
  async create(runId: string, input: StoredInput, options: StoredOptions): Promise<boolean> {
    return (await this.#scripts.twCreate(this.keys.record(runId), JSON.stringify(input), JSON.stringify(options), String(Date.now()))) === 1;
  }

  /** The run's record, or undefined when there is none. */
  async read(runId: string): Promise<RunRecord | undefined> {
    const fields = await this.redis.hgetall(this.keys.record(runId));
    if (fields.status === undefined) return undefined;
    return {
      status: fields.status as RunStatus,
      cancelRequested: fields.cancel === "1",
      input: parseField(fields.input) as StoredInput | undefined,
      options: (parseField(fields.options) ?? {}) as StoredOptions,
      checkpoint: parseField(fields.checkpoint) as AgentSnapshot | undefined,
      decisions: parseField(fields.decisions) as Record<string, ConfirmationDecision> | undefined,
    };
  }

  /** The run's status, the calls a paused run waits on, its outcome once it has one, and its leg (start 0, each resume +1). */
  async outcome(runId: string): Promise<{ status: RunStatus; outcome: RunOutcome | undefined; pending: PendingConfirmation[] | undefined; leg: number } | undefined> {
    const [status, outcome, pending, leg] = await this.redis.hmget(this.keys.record(runId), "status", "outcome", "pending", "leg");
    if (!status) return undefined;
    return { status: status as RunStatus, outcome: parseField(outcome) as RunOutcome | undefined, pending: parseField(pending) as PendingConfirmation[] | undefined, leg: Number(leg ?? 0) };
  }

  /** Marks the run as running (a worker took its step) or queued (its next step waits in the queue). */
  async markStatus(runId: string, status: "running" | "queued"): Promise<void> {
    await this.redis.hset(this.keys.record(runId), "status", status);
  }

  /** Saves the snapshot after a completed step; false when the run was cancelled meanwhile. */
  async checkpoint(runId: string, snapshot: AgentSnapshot): Promise<boolean> {
    return (await this.#scripts.twCheckpoint(this.keys.record(runId), JSON.stringify(snapshot))) === 1;
  }

  /** Appends an event to the run's stream (not awaited by the caller per chunk; commands on one connection keep their order). */
  append(runId: string, event: RunEvent): Promise<string | null> {
    return this.redis.xadd(this.keys.events(runId), "*", "e", JSON.stringify(event));
  }

  /** Ends a leg: status, outcome and last event at once, then the time to live. False when the run had ended already (cancelled first). */
  async finish(runId: string, outcome: RunOutcome, event: RunEvent, extra: Record<string, string> = {}): Promise<boolean> {
    const ttl = outcome.status === "paused" ? this.pausedTtlMs : this.finishedTtlMs;
    const pairs = Object.entries(extra).flat();
    return (await this.#scripts.twFinish(this.keys.record(runId), this.keys.events(runId), outcome.status, JSON.stringify(outcome), JSON.stringify(event), String(ttl), ...pairs)) === 1;
  }

  /** Claims a paused run for a resume: "ok", or the status that refused it ("" when there is no run). */
  resume(runId: string, decisions: Record<string, ConfirmationDecision>): Promise<string> {
    return this.#scripts.twResume(this.keys.record(runId), this.keys.events(runId), JSON.stringify(decisions));
  }

  /** Cancels; returns the status the run had ("" when there is none). */
  cancel(runId: string): Promise<string> {
    const outcome: RunOutcome = { status: "cancelled" };
    const event: RunEvent = { type: "cancelled" };
    return this.#scripts.twCancel(this.keys.record(runId), this.keys.events(runId), this.keys.cancelChannel, runId, JSON.stringify(outcome), JSON.stringify(event), String(this.finishedTtlMs));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function parseField(text: string | null | undefined): unknown {
  return text === undefined || text === null ? undefined : JSON.parse(text);
}

function checkTtl(value: unknown, fallback: number, subject: string, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1000) return value;
  throw new ConfigurationError(subject, `${subject} has a ${option} that is not a whole number of milliseconds of at least 1000, got ${describeKind(value)}.`);
}
