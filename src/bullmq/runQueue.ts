import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { checkDecisionsFor } from "../hitl/checkDecisions";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { bullmqConnection, describeRedis, newRedisClient, type RunStoreOptions } from "./connection";
import { RunNotFoundError, RunStateError, RunWaitError } from "./errors";
import { RedisDeadline, type RunCallOptions } from "./redisDeadline";
import { endsLeg, type RunEvent, type RunEventEntry, type RunOutcome } from "./runEvents";
import { encodeStartInput, jsonProblem, type RunStartInput } from "./runInput";
import { checkRunId } from "./runKeys";
import { RunStore, type RunStatus } from "./runStore";

/** The data of a BullMQ job: the run whose next step it takes. */
export interface RunJobData {
  readonly runId: string;
}

/** Options of `new RunQueue(...)`. */
export interface RunQueueOptions extends RunStoreOptions {
  /**
   * How long Redis may leave one request of a call unanswered (a blocking read: `pollMs` more) before
   * the call rejects with RunWaitError, so that no call blocks for the length of a Redis outage.
   * Default 10000 ms.
   */
  requestTimeoutMs?: number;
}

/** Options of `queue.continue(...)`. */
export interface RunContinueOptions extends RunCallOptions {
  /**
   * State values to set over the stopped run's checkpoint before it goes on, by key: what the
   * middleware that stopped it reads (raised limits for `budget({ limitsStateKey })`, a person's
   * decision for a guardrail). Plain JSON; the worker's Agent merges and checks each against its
   * stateSchema, and a value it refuses fails the run with that error. `messages` cannot be set.
   */
  state?: Readonly<Record<string, unknown>>;
}

/** Options of `queue.events(...)`. */
export interface RunEventsOptions {
  /** The id of the last event already seen (SSE `Last-Event-ID`); events after it are yielded. Default: from the first. */
  after?: string;
  /** Stops following (the iteration ends). */
  signal?: AbortSignal;
  /** Ends the iteration with a RunWaitError after this many ms. Default: none (a leg may take long). */
  timeoutMs?: number;
  /** How long one blocking read waits before it checks that the run still exists. Default 5000 ms. */
  pollMs?: number;
}

/**
 * Starts, follows, resumes and cancels runs that `RunWorker`s execute, from any process: an HTTP
 * replica needs a RunQueue, not the Agent. Runs live in Redis (their record and a Stream of their
 * events); steps are BullMQ jobs.
 *
 * @example
 * const queue = new RunQueue({ connection: { host: "127.0.0.1", port: 6379 } });
 * const runId = await queue.start({ messages: [ChatMessage.fromUser("Refund order 7")], customer_id: "c-42" });
 * for await (const { id, event } of queue.events(runId)) res.write(`id: ${id}\ndata: ${JSON.stringify(event)}\n\n`);
 */
export class RunQueue {
  readonly #store: RunStore;
  readonly #queue: Queue<RunJobData>;
  readonly #options: RunStoreOptions;
  readonly #followers = new Set<Redis>();
  readonly #requestTimeoutMs: number;
  #closed: Promise<void> | undefined;

  constructor(options: RunQueueOptions) {
    // Checked before the store opens its Redis connection, so that a configuration error leaves nothing open.
    this.#requestTimeoutMs = checkTimeout(typeof options === "object" && options !== null ? options.requestTimeoutMs : undefined, 10_000, "RunQueue", "requestTimeoutMs");
    this.#store = new RunStore(options, "RunQueue");
    this.#options = options;
    const { Queue: BullQueue } = require("bullmq") as typeof import("bullmq");
    this.#queue = new BullQueue<RunJobData>(this.#store.queueName, { connection: bullmqConnection(options.connection), prefix: this.#store.prefix });
    // Without a listener BullMQ prints each connection error to the console; the calls that fail report it (describeRedis).
    this.#queue.on("error", () => undefined);
  }

  /** The BullMQ queue the steps go through (for its metrics, its rate limit, Bull Board). */
  get bullQueue(): Queue<RunJobData> {
    return this.#queue;
  }

  /**
   * Queues a new run and resolves with its id (the given `runId`, else a random one). Rejects with
   * RunStateError when the id is taken, ConfigurationError for input that cannot cross Redis, and
   * RunWaitError when Redis does not answer in time (the run may still be queued: choose the
   * `runId` to find out with `result`, and `requeue` it).
   */
  async start(input: RunStartInput, options: RunCallOptions & { runId?: string } = {}): Promise<string> {
    const encoded = encodeStartInput(input);
    const runId = options.runId === undefined ? (require("node:crypto") as typeof import("node:crypto")).randomUUID() : checkRunId(options.runId, "RunQueue.start");
    const deadline = this.#deadline("RunQueue.start", runId, options);
    if (!(await deadline.wait(this.#store.create(runId, encoded.input, encoded.options)))) {
      throw new RunStateError(runId, "exists", `RunQueue.start was given run id '${runId}', which is already taken; use a new id, or follow the run with queue.events('${runId}').`);
    }
    await deadline.wait(this.#addLeg(runId, 0));
    return runId;
  }

  /**
   * Continues a paused run with decisions on its pending calls, on whichever worker takes it. Exactly
   * one of concurrent resumes of one pause wins; the others reject with RunStateError. Decisions that
   * do not fit the pending calls reject with DecisionError and leave the run paused. RunWaitError:
   * Redis did not answer in time (the resume may have been recorded; `result` tells).
   */
  async resume(runId: string, decisions: Readonly<Record<string, ConfirmationDecision>>, options: RunCallOptions = {}): Promise<void> {
    checkRunId(runId, "RunQueue.resume");
    const deadline = this.#deadline("RunQueue.resume", runId, options);
    const current = await deadline.wait(this.#store.outcome(runId));
    if (!current) throw notFound(runId, "RunQueue.resume");
    if (current.status !== "paused") throw notPaused(runId, current.status);
    const checked = Object.fromEntries(checkDecisionsFor(current.pending ?? [], decisions, "RunQueue.resume"));
    const claimed = await deadline.wait(this.#store.resume(runId, checked));
    if (claimed === "") throw notFound(runId, "RunQueue.resume");
    if (claimed !== "ok") throw notPaused(runId, claimed);
    await deadline.wait(this.#addLeg(runId, current.leg + 1));
  }

  /**
   * Continues a run a middleware stopped (status `stopped`: a budget ran out, a guardrail tripped)
   * from its checkpoint, on whichever worker takes it, with `state` set over the checkpoint's first.
   * What the run used before the stop still counts: the usage is in the checkpoint. Exactly one of
   * concurrent continues of one stop wins; the others reject with RunStateError, as does a run that
   * is not stopped. ConfigurationError: `state` is not plain JSON data. RunWaitError: Redis did not
   * answer in time (the continue may have been recorded; `result` tells).
   *
   * @example
   * await queue.continue(runId, { state: { budget_limits: { maxModelCalls: 20 } } });
   */
  async continue(runId: string, options: RunContinueOptions = {}): Promise<void> {
    checkRunId(runId, "RunQueue.continue");
    const deadline = this.#deadline("RunQueue.continue", runId, options);
    const updates = checkStateUpdates(options.state);
    const current = await deadline.wait(this.#store.outcome(runId));
    if (!current) throw notFound(runId, "RunQueue.continue");
    if (current.status !== "stopped") throw notStopped(runId, current.status);
    const claimed = await deadline.wait(this.#store.continue(runId, updates));
    if (claimed === "") throw notFound(runId, "RunQueue.continue");
    if (claimed !== "ok") throw notStopped(runId, claimed);
    await deadline.wait(this.#addLeg(runId, current.leg + 1));
  }

  /**
   * Cancels a run wherever it is: a running step is aborted on its worker (its tools get the abort
   * signal), a queued, paused or stopped run ends. Resolves with the status the run had. The stream ends with
   * `cancelled`. A run that already ended is left as it is. RunWaitError: Redis did not answer in time.
   */
  async cancel(runId: string, options: RunCallOptions = {}): Promise<string> {
    checkRunId(runId, "RunQueue.cancel");
    const status = await this.#deadline("RunQueue.cancel", runId, options).wait(this.#store.cancel(runId));
    if (status === "") throw notFound(runId, "RunQueue.cancel");
    return status;
  }

  /**
   * The run's events from Redis, on any replica, in order: the chunks, then the end of the current
   * leg (`paused`, `stopped`, `result`, `failed` or `cancelled`), after which the iteration ends; following a
   * finished run after its last event ends at once (a paused one waits for its resume, a stopped one for its continue). Each entry has its stream id; pass the
   * last one seen as `after` to continue without loss or repeats. An `after` that is not a stream id,
   * or later than the run's last event, is refused with ConfigurationError; RunWaitError ends it when
   * Redis does not answer in time or `timeoutMs` passes.
   */
  async *events(runId: string, options: RunEventsOptions = {}): AsyncGenerator<RunEventEntry, void, undefined> {
    checkRunId(runId, "RunQueue.events");
    const pollMs = options.pollMs ?? 5000;
    const after = parseEventId(options.after ?? "0");
    const deadline = this.#deadline("RunQueue.events", runId, options);
    try {
      const [current, last] = await Promise.all([deadline.wait(this.#store.outcome(runId)), deadline.wait(this.#store.redis.xrevrange(this.#store.keys.events(runId), "+", "-", "COUNT", 1))]);
      if (!current) throw notFound(runId, "RunQueue.events");
      if (compareEventIds(after, parseEventId(last[0]?.[0] ?? "0")) > 0) {
        throw new ConfigurationError("RunQueue.events", `RunQueue.events was given an 'after' event id '${options.after}' that is later than the last event of run '${runId}' (${last[0]?.[0] ?? "none yet"}); give an id the run's events carried.`);
      }
      yield* this.#follow(runId, after.text, deadline, pollMs);
    } catch (error) {
      // The caller's signal stops following: the iteration ends.
      if (error instanceof RunWaitError && error.reason === "aborted") return;
      throw error;
    }
  }

  /**
   * Where the run stands now, without waiting: its status and how many times it was resumed or
   * continued (`leg`). Rejects with RunNotFoundError for an unknown run, RunWaitError when Redis does
   * not answer in time.
   */
  async status(runId: string, options: RunCallOptions = {}): Promise<{ readonly status: RunStatus; readonly leg: number }> {
    checkRunId(runId, "RunQueue.status");
    const current = await this.#deadline("RunQueue.status", runId, options).wait(this.#store.outcome(runId));
    if (!current) throw notFound(runId, "RunQueue.status");
    return { status: current.status, leg: current.leg };
  }

  /**
   * Waits until the run is not running (done, paused, stopped, failed or cancelled) and resolves with where it
   * stands. Rejects with RunNotFoundError for an unknown run, and with RunWaitError after `timeoutMs`,
   * when `signal` aborts, or when Redis leaves a request unanswered for `requestTimeoutMs`.
   */
  async result(runId: string, options: RunCallOptions = {}): Promise<RunOutcome> {
    checkRunId(runId, "RunQueue.result");
    const deadline = this.#deadline("RunQueue.result", runId, options);
    for (;;) {
      // The stream's last id before the status: an end written after it is then seen by following from it.
      const last = await deadline.wait(this.#store.redis.xrevrange(this.#store.keys.events(runId), "+", "-", "COUNT", 1));
      const settled = await this.#settled(runId, deadline);
      if (settled) return settled;
      for await (const { event } of this.#follow(runId, last[0]?.[0] ?? "0", deadline, 5000)) if (endsLeg(event)) break;
    }
  }

  /**
   * Continues a run that nothing is running: a queued or running run whose leg has no job BullMQ will
   * run (a `start` or `resume` cut short before its job was added, or a job BullMQ failed for good
   * when Redis refused its writes) gets its job queued again, or retried. Safe at any time and from
   * any replica: a run whose job is waiting, delayed or active is left as it is. Resolves with true
   * when it queued or retried the job.
   */
  async requeue(runId: string, options: RunCallOptions = {}): Promise<boolean> {
    checkRunId(runId, "RunQueue.requeue");
    const deadline = this.#deadline("RunQueue.requeue", runId, options);
    const current = await deadline.wait(this.#store.outcome(runId));
    if (!current) throw notFound(runId, "RunQueue.requeue");
    if (current.status !== "queued" && current.status !== "running") return false;
    const job = await deadline.wait(this.#queue.getJob(legJobId(runId, current.leg)));
    if (!job) {
      await deadline.wait(this.#addLeg(runId, current.leg));
      return true;
    }
    const state = await deadline.wait(job.getState());
    if (state !== "failed" && state !== "completed") return false;
    await deadline.wait(job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true }));
    return true;
  }

  /**
   * Finds every queued or running run of the queue that nothing is running and continues it
   * (`requeue`): the recovery after a Redis outage, a Redis out of memory, or replicas lost between
   * recording a run and queuing its job. Resolves with the ids of the runs it continued.
   */
  async recover(options: RunCallOptions = {}): Promise<string[]> {
    const deadline = this.#deadline("RunQueue.recover", undefined, options);
    const prefix = this.#store.keys.record("");
    const continued: string[] = [];
    let cursor = "0";
    do {
      const [next, keys] = await deadline.wait(this.#store.redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500, "TYPE", "hash"));
      cursor = next;
      for (const key of keys) {
        const runId = key.slice(prefix.length);
        try {
          if (await this.requeue(runId, { ...options, timeoutMs: undefined })) continued.push(runId);
        } catch (error) {
          // A run that ended or expired since the scan is not one to continue.
          if (!(error instanceof RunNotFoundError)) throw error;
        }
        deadline.check();
      }
    } while (cursor !== "0");
    return continued;
  }

  /** Closes the queue's Redis connections (followers included). Calling it again waits for the same close. */
  close(): Promise<void> {
    return (this.#closed ??= this.#close());
  }

  async #close(): Promise<void> {
    for (const reader of this.#followers) reader.disconnect();
    await this.#queue.close();
    await this.#store.close();
  }

  async #settled(runId: string, deadline: RedisDeadline): Promise<RunOutcome | undefined> {
    const current = await deadline.wait(this.#store.outcome(runId));
    if (!current) throw notFound(runId, "RunQueue.result");
    if (current.status === "paused") return { status: "paused", pendingConfirmations: current.pending ?? [] };
    return current.status === "done" || current.status === "stopped" || current.status === "failed" || current.status === "cancelled" ? current.outcome : undefined;
  }

  // Follows the stream after `after` to the end of the current leg. A finished run (done, failed,
  // cancelled) gets no more events: what its stream holds after `after` is yielded, and no more is
  // awaited. A paused run's stream goes on after a resume, and a stopped one's after a continue, so
  // following it waits for one.
  async *#follow(runId: string, after: string, deadline: RedisDeadline, pollMs: number): AsyncGenerator<RunEventEntry, void, undefined> {
    const key = this.#store.keys.events(runId);
    const reader = newRedisClient(this.#options.connection);
    this.#followers.add(reader);
    const stop = () => reader.disconnect();
    deadline.signal?.addEventListener("abort", stop, { once: true });
    try {
      let check = true;
      for (;;) {
        if (check) {
          const current = await deadline.wait(this.#store.outcome(runId));
          if (!current) throw notFound(runId, "RunQueue.events");
          if (current.status === "done" || current.status === "failed" || current.status === "cancelled") {
            for (;;) {
              const rest = (await deadline.wait(this.#store.redis.xread("COUNT", 500, "STREAMS", key, after))) as StreamBatch;
              if (!rest) return;
              for (const entry of entries(rest)) {
                after = entry.id;
                yield entry;
                if (endsLeg(entry.event)) return;
              }
            }
          }
        }
        const batch = (await deadline.wait(reader.xread("COUNT", 500, "BLOCK", pollMs, "STREAMS", key, after), pollMs)) as StreamBatch;
        check = !batch;
        for (const entry of entries(batch)) {
          after = entry.id;
          yield entry;
          if (endsLeg(entry.event)) return;
        }
      }
    } finally {
      deadline.signal?.removeEventListener("abort", stop);
      this.#followers.delete(reader);
      reader.disconnect();
    }
  }

  #deadline(operation: string, runId: string | undefined, options: RunCallOptions): RedisDeadline {
    if (typeof options !== "object" || options === null) throw new ConfigurationError(operation, `${operation} takes options as an object such as { timeoutMs: 5000 }, got ${describeKind(options)}.`);
    const timeoutMs = options.timeoutMs === undefined ? undefined : checkTimeout(options.timeoutMs, 0, operation, "timeoutMs");
    return new RedisDeadline(operation, runId, this.#requestTimeoutMs, { timeoutMs, signal: options.signal }, () => describeRedis(this.#store.redis));
  }

  // One job per leg (start, or a resume, to the next pause or end), named by run and leg.
  async #addLeg(runId: string, leg: number): Promise<void> {
    // attempts: a step whose Redis writes failed (Redis out of memory, a failover) is retried from the
    // run's last checkpoint; the run fails only when every attempt did.
    await this.#queue.add("step", { runId }, { jobId: legJobId(runId, leg), attempts: 5, backoff: { type: "exponential", delay: 1000 }, removeOnComplete: true, removeOnFail: { age: 24 * 3600 } });
  }
}

function legJobId(runId: string, leg: number): string {
  return `${runId}.leg${leg}`;
}

type StreamBatch = Array<[string, Array<[string, string[]]>]> | null;

function entries(batch: StreamBatch): RunEventEntry[] {
  return (batch?.[0]?.[1] ?? []).map(([id, fields]) => ({ id, event: JSON.parse(fields[1]!) as RunEvent }));
}

const maxIdPart = 2n ** 64n - 1n;

// A Redis Stream id (`<ms>` or `<ms>-<seq>`, each at most 2^64 - 1), checked here rather than by Redis.
function parseEventId(text: unknown): { text: string; ms: bigint; seq: bigint } {
  const match = typeof text === "string" ? /^(\d{1,20})(?:-(\d{1,20}))?$/.exec(text) : null;
  const ms = match ? BigInt(match[1]!) : -1n;
  const seq = match?.[2] === undefined ? 0n : BigInt(match[2]);
  if (!match || ms > maxIdPart || seq > maxIdPart) {
    throw new ConfigurationError("RunQueue.events", `RunQueue.events was given an 'after' event id that is not a Redis Stream id such as 1700000000000-0, got ${describeKind(text)}.`);
  }
  return { text: `${ms}-${seq}`, ms, seq };
}

function compareEventIds(a: { ms: bigint; seq: bigint }, b: { ms: bigint; seq: bigint }): number {
  return a.ms === b.ms ? Number(a.seq - b.seq) : a.ms > b.ms ? 1 : -1;
}

function checkTimeout(value: unknown, fallback: number, subject: string, option: string): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new ConfigurationError(subject, `${subject} has a ${option} that is not a whole number of milliseconds of at least 1, got ${describeKind(value)}.`);
}

function notFound(runId: string, subject: string): RunNotFoundError {
  return new RunNotFoundError(runId, `${subject}: there is no run '${runId}'; it was never started, or it ended, stayed paused or made no progress longer than its time to live (finishedTtlMs, pausedTtlMs, activeTtlMs).`);
}

function notStopped(runId: string, status: string): RunStateError {
  return new RunStateError(runId, status, `RunQueue.continue: run '${runId}' is not stopped (it is ${status}); another continue of the same stop may have won, or the run was cancelled. Follow it with queue.events('${runId}').`);
}

// A continue's state updates: a plain object of JSON values, without the conversation.
function checkStateUpdates(state: unknown): Record<string, unknown> | undefined {
  if (state === undefined) return undefined;
  if (typeof state !== "object" || state === null || Array.isArray(state) || (Object.getPrototypeOf(state) !== Object.prototype && Object.getPrototypeOf(state) !== null)) {
    throw new ConfigurationError("RunQueue.continue", `RunQueue.continue has a state that is not an object of { stateKey: value }, got ${describeKind(state)}.`);
  }
  if (Object.hasOwn(state, "messages")) {
    throw new ConfigurationError("RunQueue.continue", "RunQueue.continue has a state with 'messages'; a continued run keeps its conversation, so set the state keys its middleware reads.");
  }
  for (const [key, value] of Object.entries(state)) {
    const problem = jsonProblem(value, key, 0);
    if (problem) throw new ConfigurationError("RunQueue.continue", `RunQueue.continue has a state with ${problem}; it crosses Redis as JSON, so pass plain data (strings, numbers, booleans, null, arrays, plain objects).`);
  }
  return Object.keys(state).length > 0 ? (state as Record<string, unknown>) : undefined;
}

function notPaused(runId: string, status: string): RunStateError {
  return new RunStateError(runId, status, `RunQueue.resume: run '${runId}' is not paused (it is ${status}); another resume of the same pause may have won, or the run was cancelled. Follow it with queue.events('${runId}').`);
}
