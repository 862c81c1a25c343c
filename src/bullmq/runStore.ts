import type { Redis } from "ioredis";
import type { AgentSnapshot } from "../agent/snapshot";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { newRedisClient, type RunStoreOptions } from "./connection";
import type { RunEvent, RunOutcome } from "./runEvents";
import type { RunConversationOption } from "./runConversationOption";
import { checkName, runKeys, type RunKeys } from "./runKeys";

/** The statuses of a run record. */
export type RunStatus = "queued" | "running" | "paused" | "stopped" | "done" | "failed" | "cancelled";

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
  /** State values of a continue, set over the checkpoint's until the step they start has completed. */
  readonly stateUpdates: Record<string, unknown> | undefined;
  /** The outcome of the stop the last continue went on from. */
  readonly lastStop: RunOutcome | undefined;
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
  readonly conversation?: RunConversationOption;
}

// Creates the record unless the id is taken, with the time to live of an active run.
// KEYS: record. ARGV: input, options, now, ttl ms.
const createScript = `
if redis.call("EXISTS", KEYS[1]) == 1 then return 0 end
redis.call("HSET", KEYS[1], "status", "queued", "input", ARGV[1], "options", ARGV[2], "createdAt", ARGV[3], "leg", "0")
redis.call("PEXPIRE", KEYS[1], ARGV[4])
return 1`;

// A worker takes the run's step: the run becomes running and owned by the job fetch's lock token, so
// that the late writes of a worker that lost the step (frozen past its lock) are refused. Only a
// queued or running run of the job's leg is taken.
// KEYS: record, events. ARGV: token, leg, ttl ms. Returns the status before ("" when there is no run).
const claimScript = `
local status = redis.call("HGET", KEYS[1], "status")
if not status then return "" end
if status ~= "queued" and status ~= "running" then return status end
if redis.call("HGET", KEYS[1], "leg") ~= ARGV[2] then return "stale" end
redis.call("HSET", KEYS[1], "status", "running", "owner", ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
redis.call("PEXPIRE", KEYS[2], ARGV[3])
return status`;

// The owner hands the run back to the queue between steps. KEYS: record, events. ARGV: token, ttl ms.
const requeueScript = `
local run = redis.call("HMGET", KEYS[1], "status", "owner")
if run[1] ~= "running" or run[2] ~= ARGV[1] then return 0 end
redis.call("HSET", KEYS[1], "status", "queued")
redis.call("PEXPIRE", KEYS[1], ARGV[2])
redis.call("PEXPIRE", KEYS[2], ARGV[2])
return 1`;

// Appends an event of the owner's step; a stream that XADD created gets the active run's time to live.
// KEYS: record, events. ARGV: token, event, ttl ms. Returns 0 when the step is no longer the caller's.
const appendScript = `
local run = redis.call("HMGET", KEYS[1], "status", "owner")
if run[1] ~= "running" or run[2] ~= ARGV[1] then return 0 end
redis.call("XADD", KEYS[2], "*", "e", ARGV[2])
if redis.call("PTTL", KEYS[2]) == -1 then redis.call("PEXPIRE", KEYS[2], ARGV[3]) end
return 1`;

// Claims a paused run for one resume: only the first of concurrent resumes finds it paused. Each
// resume starts a new leg, whose number names its BullMQ job.
// KEYS: record, events. ARGV: decisions, ttl ms. Returns "ok", or the status that refused it ("" when gone).
const resumeScript = `
local status = redis.call("HGET", KEYS[1], "status")
if status ~= "paused" then return status or "" end
redis.call("HINCRBY", KEYS[1], "leg", 1)
redis.call("HSET", KEYS[1], "status", "queued", "decisions", ARGV[1])
redis.call("HDEL", KEYS[1], "pending", "outcome", "owner")
redis.call("PEXPIRE", KEYS[1], ARGV[2])
redis.call("PEXPIRE", KEYS[2], ARGV[2])
return "ok"`;

// Claims a stopped run for one continue, like a resume claims a pause: only the first of concurrent
// continues finds it stopped. The state updates (JSON, "" for none) wait in the record for the worker.
// KEYS: record, events. ARGV: state updates, ttl ms. Returns "ok", or the status that refused it ("" when gone).
const continueScript = `
local status = redis.call("HGET", KEYS[1], "status")
if status ~= "stopped" then return status or "" end
redis.call("HINCRBY", KEYS[1], "leg", 1)
redis.call("HSET", KEYS[1], "status", "queued")
if ARGV[1] ~= "" then redis.call("HSET", KEYS[1], "updates", ARGV[1]) end
-- The stop is kept aside: a worker whose Agent refuses the updates stops the run there again.
local outcome = redis.call("HGET", KEYS[1], "outcome")
if outcome then redis.call("HSET", KEYS[1], "lastStop", outcome) end
redis.call("HDEL", KEYS[1], "outcome", "owner")
redis.call("PEXPIRE", KEYS[1], ARGV[2])
redis.call("PEXPIRE", KEYS[2], ARGV[2])
return "ok"`;

// Ends a leg of the run: its status, outcome and last event together, then its time to live.
// KEYS: record, events. ARGV: token, leg, status, outcome, event, ttl ms, then field/value pairs to set.
// With a token, only the running step's owner ends the run (a worker that lost the step cannot);
// without one (BullMQ gave up on the leg's job), a queued or running run of that leg ends. A run
// already ended stays as it is (returns 0). A run with a cancel request ends cancelled, whatever the
// step ended in: the request came first.
const finishScript = `
local status = redis.call("HGET", KEYS[1], "status")
if ARGV[1] ~= "" then
  if status ~= "running" or redis.call("HGET", KEYS[1], "owner") ~= ARGV[1] then return 0 end
elseif (status ~= "running" and status ~= "queued") or redis.call("HGET", KEYS[1], "leg") ~= ARGV[2] then
  return 0
end
local cancelled = redis.call("HGET", KEYS[1], "cancel") == "1"
if cancelled then
  ARGV[3] = "cancelled"
  ARGV[4] = '{"status":"cancelled"}'
  ARGV[5] = '{"type":"cancelled"}'
else
  for i = 7, #ARGV, 2 do redis.call("HSET", KEYS[1], ARGV[i], ARGV[i + 1]) end
end
redis.call("HSET", KEYS[1], "status", ARGV[3], "outcome", ARGV[4])
redis.call("HDEL", KEYS[1], "cancel", "decisions", "updates", "input", "owner")
redis.call("XADD", KEYS[2], "*", "e", ARGV[5])
redis.call("PEXPIRE", KEYS[1], ARGV[6])
redis.call("PEXPIRE", KEYS[2], ARGV[6])
return 1`;

// Cancels: a paused or stopped run is ended here; a queued or running one is flagged and its worker told.
// KEYS: record, events. ARGV: channel, run id, outcome, event, ttl ms. Returns the status before.
const cancelScript = `
local status = redis.call("HGET", KEYS[1], "status")
if not status then return "" end
if status == "paused" or status == "stopped" then
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

// Saves a checkpoint of the owner's step. KEYS: record, events. ARGV: token, snapshot, ttl ms.
// Returns 1, 0 when the run was asked to cancel meanwhile, -1 when the step is no longer the caller's.
const checkpointScript = `
local run = redis.call("HMGET", KEYS[1], "status", "owner", "cancel")
if run[1] ~= "running" or run[2] ~= ARGV[1] then return -1 end
if run[3] == "1" then return 0 end
redis.call("HSET", KEYS[1], "checkpoint", ARGV[2])
redis.call("HDEL", KEYS[1], "input", "decisions", "updates")
redis.call("PEXPIRE", KEYS[1], ARGV[3])
redis.call("PEXPIRE", KEYS[2], ARGV[3])
return 1`;

interface Scripts {
  twCreate(record: string, input: string, options: string, now: string, ttl: string): Promise<number>;
  twClaim(record: string, events: string, token: string, leg: string, ttl: string): Promise<string>;
  twRequeue(record: string, events: string, token: string, ttl: string): Promise<number>;
  twAppend(record: string, events: string, token: string, event: string, ttl: string): Promise<number>;
  twResume(record: string, events: string, decisions: string, ttl: string): Promise<string>;
  twContinue(record: string, events: string, updates: string, ttl: string): Promise<string>;
  twFinish(record: string, events: string, ...args: string[]): Promise<number>;
  twCancel(record: string, events: string, channel: string, runId: string, outcome: string, event: string, ttl: string): Promise<string>;
  twCheckpoint(record: string, events: string, token: string, snapshot: string, ttl: string): Promise<number>;
}

const day = 24 * 60 * 60 * 1000;

/** What a worker's write into a run it took answers: done, refused because the run was asked to cancel, or refused because another attempt owns the step now. */
export type OwnedWrite = "ok" | "cancelled" | "lost";

/** The run records and event streams of one queue, in Redis. Shared by RunQueue and RunWorker. */
export class RunStore {
  readonly redis: Redis;
  readonly keys: RunKeys;
  readonly queueName: string;
  readonly prefix: string;
  readonly finishedTtlMs: number;
  readonly pausedTtlMs: number;
  readonly activeTtlMs: number;
  readonly #scripts: Scripts;

  constructor(options: RunStoreOptions, subject: string) {
    if (typeof options !== "object" || options === null || typeof options.connection !== "object" || options.connection === null) {
      throw new ConfigurationError(subject, `${subject} needs options with a connection: { connection: { host, port } } or an ioredis client, got ${describeKind(options)}.`);
    }
    this.queueName = checkName(options.name, "toolwright-runs", subject, "name");
    this.prefix = checkName(options.prefix, "toolwright", subject, "prefix");
    this.finishedTtlMs = checkTtl(options.finishedTtlMs, day, subject, "finishedTtlMs");
    this.pausedTtlMs = checkTtl(options.pausedTtlMs, 7 * day, subject, "pausedTtlMs");
    this.activeTtlMs = checkTtl(options.activeTtlMs, 7 * day, subject, "activeTtlMs");
    this.keys = runKeys(this.prefix, this.queueName);
    this.redis = newRedisClient(options.connection);
    this.redis.defineCommand("twCreate", { numberOfKeys: 1, lua: createScript });
    this.redis.defineCommand("twClaim", { numberOfKeys: 2, lua: claimScript });
    this.redis.defineCommand("twRequeue", { numberOfKeys: 2, lua: requeueScript });
    this.redis.defineCommand("twAppend", { numberOfKeys: 2, lua: appendScript });
    this.redis.defineCommand("twResume", { numberOfKeys: 2, lua: resumeScript });
    this.redis.defineCommand("twContinue", { numberOfKeys: 2, lua: continueScript });
    this.redis.defineCommand("twFinish", { numberOfKeys: 2, lua: finishScript });
    this.redis.defineCommand("twCancel", { numberOfKeys: 2, lua: cancelScript });
    this.redis.defineCommand("twCheckpoint", { numberOfKeys: 2, lua: checkpointScript });
    this.#scripts = this.redis as unknown as Scripts;
  }

  /** Creates a run's record; false when the id is taken. */
  async create(runId: string, input: StoredInput, options: StoredOptions): Promise<boolean> {
    return (await this.#scripts.twCreate(this.keys.record(runId), JSON.stringify(input), JSON.stringify(options), String(Date.now()), String(this.activeTtlMs))) === 1;
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
      stateUpdates: parseField(fields.updates) as Record<string, unknown> | undefined,
      lastStop: parseField(fields.lastStop) as RunOutcome | undefined,
    };
  }

  /** The run's status, the calls a paused run waits on, its outcome once it has one, and its leg (start 0, each resume +1). */
  async outcome(runId: string): Promise<{ status: RunStatus; outcome: RunOutcome | undefined; pending: PendingConfirmation[] | undefined; leg: number } | undefined> {
    const [status, outcome, pending, leg] = await this.redis.hmget(this.keys.record(runId), "status", "outcome", "pending", "leg");
    if (!status) return undefined;
    return { status: status as RunStatus, outcome: parseField(outcome) as RunOutcome | undefined, pending: parseField(pending) as PendingConfirmation[] | undefined, leg: Number(leg ?? 0) };
  }

  /**
   * Takes the run's step for the job fetch with this lock token: the status before ("queued", or
   * "running" when the last step's worker was lost), another status when the run is not to be run
   * ("stale" for a job of an earlier leg, "" when there is no run).
   */
  claim(runId: string, token: string, leg: number): Promise<string> {
    return this.#scripts.twClaim(this.keys.record(runId), this.keys.events(runId), token, String(leg), String(this.activeTtlMs));
  }

  /** Hands the run back to the queue for its next step; false when the step is no longer the caller's. */
  async release(runId: string, token: string): Promise<boolean> {
    return (await this.#scripts.twRequeue(this.keys.record(runId), this.keys.events(runId), token, String(this.activeTtlMs))) === 1;
  }

  /** Saves the snapshot after a completed step of the caller's. */
  async checkpoint(runId: string, token: string, snapshot: AgentSnapshot): Promise<OwnedWrite> {
    const reply = await this.#scripts.twCheckpoint(this.keys.record(runId), this.keys.events(runId), token, JSON.stringify(snapshot), String(this.activeTtlMs));
    return reply === 1 ? "ok" : reply === 0 ? "cancelled" : "lost";
  }

  /** Appends an event of the caller's step to the run's stream; false when the step is no longer the caller's. */
  async append(runId: string, token: string, event: RunEvent): Promise<boolean> {
    return (await this.#scripts.twAppend(this.keys.record(runId), this.keys.events(runId), token, JSON.stringify(event), String(this.activeTtlMs))) === 1;
  }

  /**
   * Ends a leg: status, outcome and last event at once, then the time to live. With the step's token
   * only its owner can; with `{ leg }` (no owner: BullMQ gave up on the leg's job) a queued or running
   * run of that leg ends. False when the run had ended already (cancelled first) or is not the caller's.
   */
  async finish(runId: string, by: { token: string } | { leg: number }, outcome: RunOutcome, event: RunEvent, extra: Record<string, string> = {}): Promise<boolean> {
    const ttl = outcome.status === "paused" || outcome.status === "stopped" ? this.pausedTtlMs : this.finishedTtlMs;
    const pairs = Object.entries(extra).flat();
    const [token, leg] = "token" in by ? [by.token, ""] : ["", String(by.leg)];
    return (await this.#scripts.twFinish(this.keys.record(runId), this.keys.events(runId), token, leg, outcome.status, JSON.stringify(outcome), JSON.stringify(event), String(ttl), ...pairs)) === 1;
  }

  /** Claims a paused run for a resume: "ok", or the status that refused it ("" when there is no run). */
  resume(runId: string, decisions: Record<string, ConfirmationDecision>): Promise<string> {
    return this.#scripts.twResume(this.keys.record(runId), this.keys.events(runId), JSON.stringify(decisions), String(this.activeTtlMs));
  }

  /** Claims a stopped run for a continue with these state updates: "ok", or the status that refused it ("" when there is no run). */
  continue(runId: string, stateUpdates: Record<string, unknown> | undefined): Promise<string> {
    return this.#scripts.twContinue(this.keys.record(runId), this.keys.events(runId), stateUpdates === undefined ? "" : JSON.stringify(stateUpdates), String(this.activeTtlMs));
  }

  /** Cancels; returns the status the run had ("" when there is none). */
  cancel(runId: string): Promise<string> {
    const outcome: RunOutcome = { status: "cancelled" };
    const event: RunEvent = { type: "cancelled" };
    return this.#scripts.twCancel(this.keys.record(runId), this.keys.events(runId), this.keys.cancelChannel, runId, JSON.stringify(outcome), JSON.stringify(event), String(this.finishedTtlMs));
  }

  async close(): Promise<void> {
    // QUIT waits in the offline queue while the client is not connected (Redis down): it would never settle.
    if (this.redis.status !== "ready") return this.redis.disconnect();
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
