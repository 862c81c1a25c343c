import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { checkDecisionsFor } from "../agent/resumeRun";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { bullmqConnection, newRedisClient, type RunStoreOptions } from "./connection";
import { RunNotFoundError, RunStateError } from "./errors";
import { endsLeg, type RunEvent, type RunEventEntry, type RunOutcome } from "./runEvents";
import { encodeStartInput, type RunStartInput } from "./runInput";
import { checkRunId } from "./runKeys";
import { RunStore } from "./runStore";

/** The data of a BullMQ job: the run whose next step it takes. */
export interface RunJobData {
  readonly runId: string;
}

/** Options of `new RunQueue(...)`. */
export type RunQueueOptions = RunStoreOptions;

/** Options of `queue.events(...)`. */
export interface RunEventsOptions {
  /** The id of the last event already seen (SSE `Last-Event-ID`); events after it are yielded. Default: from the first. */
  after?: string;
  /** Stops following (the iteration ends). */
  signal?: AbortSignal;
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
  #closed: Promise<void> | undefined;

  constructor(options: RunQueueOptions) {
    this.#store = new RunStore(options, "RunQueue");
    this.#options = options;
    const { Queue: BullQueue } = require("bullmq") as typeof import("bullmq");
    this.#queue = new BullQueue<RunJobData>(this.#store.queueName, { connection: bullmqConnection(options.connection), prefix: this.#store.prefix });
  }

  /** The BullMQ queue the steps go through (for its metrics, its rate limit, Bull Board). */
  get bullQueue(): Queue<RunJobData> {
    return this.#queue;
  }

  /**
   * Queues a new run and resolves with its id (the given `runId`, else a random one). Rejects with
   * RunStateError when the id is taken, and ConfigurationError for input that cannot cross Redis.
   */
  async start(input: RunStartInput, options: { runId?: string } = {}): Promise<string> {
    const encoded = encodeStartInput(input);
    const runId = options.runId === undefined ? (require("node:crypto") as typeof import("node:crypto")).randomUUID() : checkRunId(options.runId, "RunQueue.start");
    if (!(await this.#store.create(runId, encoded.input, encoded.options))) {
      throw new RunStateError(runId, "exists", `RunQueue.start was given run id '${runId}', which is already taken; use a new id, or follow the run with queue.events('${runId}').`);
    }
    await this.#addLeg(runId, 0);
    return runId;
  }

  /**
   * Continues a paused run with decisions on its pending calls, on whichever worker takes it. Exactly
   * one of concurrent resumes of one pause wins; the others reject with RunStateError. Decisions that
   * do not fit the pending calls reject with DecisionError and leave the run paused.
   */
  async resume(runId: string, decisions: Readonly<Record<string, ConfirmationDecision>>): Promise<void> {
    checkRunId(runId, "RunQueue.resume");
    const current = await this.#store.outcome(runId);
    if (!current) throw notFound(runId, "RunQueue.resume");
    if (current.status !== "paused") throw notPaused(runId, current.status);
    const checked = Object.fromEntries(checkDecisionsFor(current.pending ?? [], decisions, "RunQueue.resume"));
    const claimed = await this.#store.resume(runId, checked);
    if (claimed === "") throw notFound(runId, "RunQueue.resume");
    if (claimed !== "ok") throw notPaused(runId, claimed);
    await this.#addLeg(runId, current.leg + 1);
  }

  /**
   * Cancels a run wherever it is: a running step is aborted on its worker (its tools get the abort
   * signal), a queued or paused run ends. Resolves with the status the run had. The stream ends with
   * `cancelled`. A run that already ended is left as it is.
   */
  async cancel(runId: string): Promise<string> {
    checkRunId(runId, "RunQueue.cancel");
    const status = await this.#store.cancel(runId);
    if (status === "") throw notFound(runId, "RunQueue.cancel");
    return status;
  }

  /**
   * The run's events from Redis, on any replica, in order: the chunks, then the end of the current
   * leg (`paused`, `result`, `failed` or `cancelled`), after which the iteration ends. Each entry has
   * its stream id; pass the last one seen as `after` to continue without loss or repeats.
   */
  async *events(runId: string, options: RunEventsOptions = {}): AsyncGenerator<RunEventEntry, void, undefined> {
    checkRunId(runId, "RunQueue.events");
    const pollMs = options.pollMs ?? 5000;
    let after = options.after ?? "0";
    if (!/^\d+(-\d+)?$/.test(after)) throw new ConfigurationError("RunQueue.events", `RunQueue.events was given an 'after' event id that is not a Redis Stream id such as 1700000000000-0, got ${describeKind(after)}.`);
    if (!(await this.#store.outcome(runId))) throw notFound(runId, "RunQueue.events");
    const reader = newRedisClient(this.#options.connection);
    this.#followers.add(reader);
    const stop = () => reader.disconnect();
    options.signal?.addEventListener("abort", stop, { once: true });
    try {
      while (!options.signal?.aborted) {
        let batch: Array<[string, Array<[string, string[]]>]> | null;
        try {
          batch = (await reader.xread("COUNT", 500, "BLOCK", pollMs, "STREAMS", this.#store.keys.events(runId), after)) as typeof batch;
        } catch (error) {
          if (options.signal?.aborted) return;
          throw error;
        }
        if (!batch) {
          if (!(await this.#store.outcome(runId))) throw notFound(runId, "RunQueue.events");
          continue;
        }
        for (const [id, fields] of batch[0]![1]) {
          after = id;
          const event = JSON.parse(fields[1]!) as RunEvent;
          yield { id, event };
          if (endsLeg(event)) return;
        }
      }
    } finally {
      options.signal?.removeEventListener("abort", stop);
      this.#followers.delete(reader);
      reader.disconnect();
    }
  }

  /**
   * Waits until the run is not running (done, paused, failed or cancelled) and resolves with where it
   * stands. Rejects with RunNotFoundError for an unknown run, or after `timeoutMs` with an AbortError.
   */
  async result(runId: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<RunOutcome> {
    checkRunId(runId, "RunQueue.result");
    // The stream's last id before the status: an end written after it is then seen by following from it.
    const last = await this.#store.redis.xrevrange(this.#store.keys.events(runId), "+", "-", "COUNT", 1);
    const settled = await this.#settled(runId);
    if (settled) return settled;
    const signal = options.timeoutMs === undefined ? options.signal : anySignal(options.signal, AbortSignal.timeout(options.timeoutMs));
    for await (const { event } of this.events(runId, { signal, after: last[0]?.[0] ?? "0" })) if (endsLeg(event)) break;
    if (signal?.aborted) throw signal.reason;
    const outcome = await this.#settled(runId);
    if (!outcome) throw notFound(runId, "RunQueue.result");
    return outcome;
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

  async #settled(runId: string): Promise<RunOutcome | undefined> {
    const current = await this.#store.outcome(runId);
    if (!current) throw notFound(runId, "RunQueue.result");
    if (current.status === "paused") return { status: "paused", pendingConfirmations: current.pending ?? [] };
    return current.status === "done" || current.status === "failed" || current.status === "cancelled" ? current.outcome : undefined;
  }

  /**
   * Queues the run's job again when it has none: `start` and `resume` record the run, then add its
   * job, so a process that dies between the two leaves the run queued with no job (its `result`
   * would wait forever). Safe to call at any time and from any replica: the job of a leg has a fixed
   * id, so a job that exists is not added twice. Resolves with true when it added the job.
   */
  async requeue(runId: string): Promise<boolean> {
    checkRunId(runId, "RunQueue.requeue");
    const current = await this.#store.outcome(runId);
    if (!current) throw notFound(runId, "RunQueue.requeue");
    if (current.status !== "queued" && current.status !== "running") return false;
    if (await this.#queue.getJob(legJobId(runId, current.leg))) return false;
    await this.#addLeg(runId, current.leg);
    return true;
  }

  // One job per leg (start, or a resume, to the next pause or end), named by run and leg.
  async #addLeg(runId: string, leg: number): Promise<void> {
    await this.#queue.add("step", { runId }, { jobId: legJobId(runId, leg), removeOnComplete: true, removeOnFail: { age: 24 * 3600 } });
  }
}

function legJobId(runId: string, leg: number): string {
  return `${runId}.leg${leg}`;
}

function anySignal(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  return a ? AbortSignal.any([a, b]) : b;
}

function notFound(runId: string, subject: string): RunNotFoundError {
  return new RunNotFoundError(runId, `${subject}: there is no run '${runId}'; it was never started, or it ended or stayed paused longer than its time to live (finishedTtlMs, pausedTtlMs).`);
}

function notPaused(runId: string, status: string): RunStateError {
  return new RunStateError(runId, status, `RunQueue.resume: run '${runId}' is not paused (it is ${status}); another resume of the same pause may have won, or the run was cancelled. Follow it with queue.events('${runId}').`);
}
