import type { RunStop } from "../run/middleware";
import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Agent } from "../agent/agent";
import type { AgentResult, AgentRunOptions } from "../agent/agentTypes";
import { BreakpointError } from "../agent/breakpoint";
import type { AgentSnapshot } from "../agent/snapshot";
import { ChatMessage } from "../chat/chatMessage";
import type { StreamingChunk } from "../chat/streaming";
import type { ConversationStore } from "../conversations/conversationStore";
import { ConfigurationError } from "../errors";
import type { StateSchema } from "../state/stateSchema";
import { describeKind } from "../util/describeValue";
import { setOwn } from "../util/ownProperty";
import type { RunStoreOptions } from "./connection";
import type { RunFailure, RunResultJSON } from "./runEvents";
import type { JsonValue } from "../state/jsonCodec";
import type { RunJobData } from "./runQueue";
import { type RunRecord, RunStore } from "./runStore";
import { endRedisClient, WorkerRedis } from "./workerRedis";
import { RedisDataLostError } from "./errors";

/** Options of `new RunWorker(...)`. */
export interface RunWorkerOptions<S extends StateSchema> extends RunStoreOptions {
  /** The Agent that runs the steps: the same code as in-process (its tools, strategies, snapshot key). */
  agent: Agent<S, string>;
  /** Steps this worker runs at once. Default 1. */
  concurrency?: number;
  /** BullMQ's rate limit, for the whole queue: at most `max` steps (one model call each) per `duration` ms. */
  limiter?: { max: number; duration: number };
  /**
   * How long a worker holds a step before BullMQ considers it lost (the worker died) and hands the
   * run to another worker, which continues from its last checkpoint. Default 30000 ms.
   */
  lockDurationMs?: number;
  /** How often workers look for lost steps. Default 30000 ms. */
  stalledIntervalMs?: number;
  /**
   * How many times a leg's job (from start or a resume to the next pause or end; it carries every
   * step of the leg) may be lost before BullMQ fails it; `RunQueue.recover()` then continues the run
   * from its last checkpoint. Default 3. A worker stalled longer than
   * `lockDurationMs` (a blocked event loop) looks lost too, and its step may then run twice.
   */
  maxStalledCount?: number;
  /**
   * Where the threads of runs started with `conversation` are kept (a store of
   * `toolwright/conversations` that every worker of the queue shares: Postgres, PGlite on one host, Redis).
   * A run in a thread on a worker without it fails.
   */
  conversationStore?: ConversationStore;
  /**
   * How long `close()` waits for the steps running to end before it gives up on them. Default 10000 ms.
   * When it passes, or at once when no step is running and Redis is not connected, the worker drops
   * its Redis connections and aborts the steps still running (their tools get the abort signal):
   * nothing they do reaches Redis any more, so each stays claimable and another worker takes its run
   * from its last checkpoint once the step's lock runs out (`lockDurationMs`, then a check for lost
   * steps), running that step again.
   */
  closeTimeoutMs?: number;
  /**
   * Where the worker reports what goes wrong outside a step, since no call of yours is there to reject:
   * a RedisConnectionError once per Redis outage (Redis down, never up or unreachable; the worker
   * goes on by itself when Redis is back), a RedisDataLostError once per job Redis no longer has
   * (its data lost: a restart without persistence, a FLUSHALL, an eviction), and BullMQ's other
   * errors as they come (a write Redis refused, such as its OOM). Default: each is printed to
   * stderr on one line, its name and message.
   */
  onError?: (error: Error) => void;
}

/**
 * Runs queued runs with an Agent, one step (one model call and its tool calls) per BullMQ job
 * fetch: the run is checkpointed in Redis after the model's reply and after the tool calls, its
 * events go to the run's Stream, a pause or a middleware's stop stores its snapshot and ends the job, and between steps
 * the job goes back to the queue, so the rate limit counts model calls and a lost worker costs at
 * most the step in flight.
 */
export class RunWorker<S extends StateSchema = StateSchema> {
  readonly #store: RunStore;
  readonly #agent: Agent<S, string>;
  readonly #conversationStore: ConversationStore | undefined;
  readonly #worker: Worker<RunJobData>;
  readonly #subscriber: Redis;
  readonly #redis: WorkerRedis;
  readonly #closeTimeoutMs: number;
  // The jobs reported lost (RedisDataLostError), so that BullMQ's several failed moves of one are one report.
  readonly #lostJobs = new Set<string>();
  readonly #running = new Map<string, AbortController>();
  #closed: Promise<void> | undefined;

  constructor(options: RunWorkerOptions<S>) {
    // The worker's own options are checked before the store opens its Redis connection, so that a
    // configuration error leaves nothing open (options that are not an object are the store's to refuse).
    const settings = typeof options === "object" && options !== null ? workerSettings(options) : undefined;
    this.#closeTimeoutMs = settings?.closeTimeoutMs ?? 0;
    const report = reporter(settings?.onError);
    this.#store = new RunStore(options, "RunWorker");
    this.#redis = new WorkerRedis(options.connection, this.#store.queueName, report);
    this.#agent = options.agent;
    this.#conversationStore = options.conversationStore;
    const { Worker: BullWorker, WaitingError } = require("bullmq") as typeof import("bullmq");
    this.#worker = new BullWorker<RunJobData>(
      this.#store.queueName,
      async (job, token) => {
        // BullMQ gives every job fetch a token of its own: it fences the writes of this attempt.
        const owner = token ?? `${job.id}:${job.processedOn}`;
        if ((await this.#step(job, owner)) === "next" && (await this.#store.release(job.data.runId, owner))) {
          await job.moveToWait(token);
          throw new WaitingError();
        }
      },
      {
        connection: this.#redis.bullmq,
        prefix: this.#store.prefix,
        ...settings?.bullmq,
      },
    );
    // Without a listener BullMQ prints each error (with its stack) to the console. Connection errors
    // are the outage WorkerRedis reports once; the rest go to onError.
    this.#worker.on("error", (error: Error) => {
      if (this.#closed !== undefined || this.#redis.down || isConnectionError(error)) return;
      const lost = lostJob(error);
      if (lost === undefined) return report(error);
      // BullMQ fails each of its moves of a job Redis lost (to finished, then to delayed): one report per job.
      if (this.#lostJobs.has(lost)) return;
      if (this.#lostJobs.size >= 1000) this.#lostJobs.clear();
      this.#lostJobs.add(lost);
      report(dataLost(this.#redis.target, this.#store.queueName, lost, error));
    });
    // A leg's job this worker failed for good (its Redis writes failed on every attempt) ends its run
    // as failed rather than leaving it running; an attempt that BullMQ retries has no finishedOn.
    // When this write fails too, or BullMQ failed the job elsewhere (lost more than maxStalledCount
    // times, which emits no worker event), requeue() or recover() continues the run.
    this.#worker.on("failed", (job, error) => {
      if (!job?.finishedOn) return;
      const failure: RunFailure = { name: error.name, message: `the step could not be completed: ${error.message}` };
      const leg = legOf(job.id);
      if (leg !== undefined) void this.#store.finish(job.data.runId, { leg }, { status: "failed", error: failure }, { type: "failed", error: failure }).catch(() => undefined);
    });
    // A cancel from any replica reaches the worker running the run. ioredis subscribes again after a
    // reconnection; a first subscribe that fails (Redis down at start) is retried by the same reconnection.
    this.#subscriber = this.#redis.newClient();
    this.#subscriber.subscribe(this.#store.keys.cancelChannel).catch(() => undefined);
    this.#subscriber.on("message", (_channel: string, runId: string) => this.#running.get(runId)?.abort(new Error(`run '${runId}' was cancelled`)));
  }

  /** The BullMQ worker (for its events: `failed`, `error`, `stalled`). */
  get bullWorker(): Worker<RunJobData> {
    return this.#worker;
  }

  /**
   * Stops taking steps, waits for the running ones, and closes the connections, within
   * `closeTimeoutMs` whether Redis is up, down or paused (what happens to steps still running then is
   * in `closeTimeoutMs`). Calling it again waits for the same close.
   */
  close(): Promise<void> {
    return (this.#closed ??= this.#close());
  }

  async #close(): Promise<void> {
    const endsAt = Date.now() + this.#closeTimeoutMs;
    const closing = this.#worker.close().then(
      () => true,
      () => true,
    );
    if (!(await this.#closedWithin(closing, endsAt))) {
      // BullMQ's close waits for Redis (its connection's first ready, a reply) for as long as it takes:
      // dropping the connections ends those waits. The store's goes first, so that an aborted step
      // cannot record its run as cancelled: it stays claimable.
      endRedisClient(this.#store.redis);
      this.#redis.disconnect();
      for (const [runId, controller] of this.#running) controller.abort(new Error(`run '${runId}' was left by a RunWorker that closed before its step ended`));
    }
    endRedisClient(this.#subscriber);
    await this.#redis.quit(Math.max(0, endsAt - Date.now()));
    if (!(await within(this.#store.close(), Math.max(0, endsAt - Date.now())))) endRedisClient(this.#store.redis);
  }

  // Whether BullMQ's close ended in time: false once `endsAt` passes, or as soon as no step is running
  // while Redis is not connected (nothing is left to wait for but Redis).
  async #closedWithin(closing: Promise<boolean>, endsAt: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const given = new Promise<boolean>((resolve) => {
      const check = () => {
        if (Date.now() >= endsAt || (this.#running.size === 0 && !this.#redis.connected)) resolve(false);
        else timer = setTimeout(check, Math.min(50, endsAt - Date.now()));
      };
      check();
    });
    try {
      return await Promise.race([closing, given]);
    } finally {
      clearTimeout(timer);
    }
  }

  // Runs the run's next step: "next" when more steps follow, "end" when the run is not to be run
  // further by this job. A Redis write that fails rejects, which fails this attempt of the step
  // (BullMQ retries it from the last checkpoint), never the process.
  async #step(job: Job<RunJobData>, token: string): Promise<"next" | "end"> {
    const { runId } = job.data;
    const leg = legOf(job.id);
    if (leg === undefined) return "end";
    // Registered before the record is read, so that a cancel published from now on reaches this step;
    // one published before is in the record's cancel flag.
    const controller = new AbortController();
    this.#running.set(runId, controller);
    try {
      const before = await this.#store.claim(runId, token, leg);
      if (before !== "queued" && before !== "running") return "end";
      const record = await this.#store.read(runId);
      if (!record) return "end";
      if (record.cancelRequested) {
        await this.#store.finish(runId, { token }, { status: "cancelled" }, { type: "cancelled" });
        return "end";
      }
      // Still "running": the attempt that ran the last step was lost before it handed the run back.
      if (before === "running" && !(await this.#store.append(runId, token, { type: "recovered", stepCount: record.checkpoint?.stepCount ?? 0 }))) return "end";
      return await this.#runStep(runId, token, record, controller);
    } finally {
      if (this.#running.get(runId) === controller) this.#running.delete(runId);
    }
  }

  // Runs the agent from where the record stands to the next model call.
  async #runStep(runId: string, token: string, record: RunRecord, controller: AbortController): Promise<"next" | "end"> {
    // Why this attempt stopped early, besides a cancel: a Redis write failed, or another attempt owns the step.
    let stop: { lost: true } | { error: unknown } | undefined;
    const halt = (reason: { lost: true } | { error: unknown }) => {
      stop ??= reason;
      controller.abort("error" in reason ? reason.error : new Error(`run '${runId}' is no longer this worker's`));
    };
    // Whether the run got anywhere: refused state updates fail it before its first chunk or checkpoint.
    let started = false;
    let appending: Promise<unknown> = Promise.resolve();
    // A thread store that could not be reached (not a store's refusal): the attempt is retried, like a failed Redis write.
    let unreachable = false;
    const conversation = record.options.conversation;
    const store = this.#conversationStore;
    if (conversation !== undefined && store === undefined) {
      const failure: RunFailure = {
        name: "ConfigurationError",
        message: `RunWorker: run '${runId}' is in thread '${conversation.threadId}' (RunQueue.start was given conversation), but this worker has no conversationStore; give every RunWorker of queue '${this.#store.queueName}' the store the thread is kept in: new RunWorker({ agent, connection, conversationStore }).`,
      };
      await this.#store.finish(runId, { token }, { status: "failed", error: failure }, { type: "failed", error: failure });
      return "end";
    }
    const append = (chunk: StreamingChunk) => {
      started = true;
      // Each append has its handler at once: a refused write stops the step instead of becoming an
      // unhandled rejection that ends the process.
      const written = this.#store.append(runId, token, chunk).then(
        (ok) => void (ok || halt({ lost: true })),
        (error: unknown) => halt({ error }),
      );
      appending = appending.then(() => written);
    };
    try {
      const result = await this.#agent.run({
        ...this.#startOf(record),
        ...(conversation !== undefined && { conversation: { ...conversation, store: reachable(store!, () => (unreachable = true)) } }),
        runId,
        signal: controller.signal,
        breakpoint: { at: "chat_generator", visit: nextModelVisit(record.checkpoint) },
        streamingCallback: append,
        onCheckpoint: async (snapshot: AgentSnapshot) => {
          started = true;
          let written: string;
          try {
            written = await this.#store.checkpoint(runId, token, snapshot);
          } catch (error) {
            halt({ error });
            throw error;
          }
          if (written === "lost") halt({ lost: true });
          else if (written === "cancelled") controller.abort(new Error(`run '${runId}' was cancelled`));
        },
      } as AgentRunOptions as Parameters<Agent<S, string>["run"]>[0]);
      await appending;
      return await this.#ended(runId, token, stop, () => this.#finished(runId, token, result as AgentResult<StateSchema>));
    } catch (error) {
      await appending;
      if (error instanceof BreakpointError && stop === undefined) return "next";
      // Retried from the last checkpoint after BullMQ's backoff; the append is idempotent by run id, so a retry that finds it written appends nothing.
      if (unreachable && stop === undefined && !controller.signal.aborted) throw error;
      return await this.#ended(runId, token, stop, async () => {
        if (controller.signal.aborted) {
          await this.#store.finish(runId, { token }, { status: "cancelled" }, { type: "cancelled" });
          return;
        }
        const failure: RunFailure = { name: (error as Error)?.name ?? "Error", message: (error as Error)?.message ?? String(error) };
        const lastStop = record.lastStop;
        if (!started && record.stateUpdates !== undefined && lastStop?.status === "stopped" && refusesStateUpdates(error)) {
          // Bad input loses nothing: the run stays stopped at its checkpoint, and says why the continue was refused.
          const { stopped, result } = lastStop;
          await this.#store.finish(runId, { token }, { status: "stopped", stopped, result, refused: failure }, { type: "stopped", stopped, result, refused: failure });
          return;
        }
        // A thread that refused the run's messages (another run appended first, a bound): the result is kept on the failure.
        const refusedBy = (error as { name?: unknown; result?: unknown })?.name === "ConversationAppendError" ? (error as { result?: AgentResult<StateSchema> }).result : undefined;
        const result = refusedBy === undefined ? undefined : resultJSON(refusedBy);
        await this.#store.finish(runId, { token }, { status: "failed", error: failure, ...(result && { result }) }, { type: "failed", error: failure, ...(result && { result }) });
      });
    }
  }

  // Ends the step: a failed write fails this attempt (rethrown for BullMQ to retry); a lost step
  // leaves the run to the attempt that owns it; otherwise the run's leg ends as `end` says.
  async #ended(runId: string, token: string, stop: { lost: true } | { error: unknown } | undefined, end: () => Promise<void>): Promise<"end"> {
    if (stop && "error" in stop) throw stop.error;
    if (!stop) await end();
    return "end";
  }

  // Where the step starts: the last checkpoint (with a resume's decisions or a continue's state
  // updates, which the worker's Agent checks against its stateSchema), else the run's input.
  // The system prompt is in the conversation from the first step on.
  #startOf(record: RunRecord): Record<string, unknown> {
    const { systemPrompt, conversation: _, ...options } = record.options;
    if (record.checkpoint) return { ...options, snapshot: record.checkpoint, ...(record.decisions && { decisions: record.decisions }), ...(record.stateUpdates && { stateUpdates: record.stateUpdates }) };
    const input = record.input ?? { messages: [], state: {} };
    return { ...input.state, ...options, ...(systemPrompt !== undefined && { systemPrompt }), messages: input.messages.map((m) => ChatMessage.fromJSON(m)) };
  }

  async #finished(runId: string, token: string, result: AgentResult<StateSchema>): Promise<void> {
    if (result.exitReason === "confirmation_required") {
      const pendingConfirmations = result.pendingConfirmations!;
      await this.#store.finish(runId, { token }, { status: "paused", pendingConfirmations }, { type: "paused", pendingConfirmations }, { checkpoint: JSON.stringify(result.snapshot), pending: JSON.stringify(pendingConfirmations) });
      return;
    }
    const json = resultJSON(result);
    if (result.stopped !== undefined) {
      // Kept like a pause's: the checkpoint (signed when the Agent has a snapshotKey) that continue() goes on from.
      const stopped = json.stopped!;
      await this.#store.finish(runId, { token }, { status: "stopped", stopped, result: json }, { type: "stopped", stopped, result: json }, { checkpoint: JSON.stringify(result.snapshot) });
      return;
    }
    await this.#store.finish(runId, { token }, { status: "done", result: json }, { type: "result", result: json });
  }
}

// Whether `promise` settles within `ms`.
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => true,
    () => true,
  );
  try {
    return await Promise.race([settled, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

// A BullMQ error that comes from the connection (reported once per outage by WorkerRedis), not from Redis's answer.
function isConnectionError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const { isNotConnectionError } = require("bullmq") as typeof import("bullmq");
  return (typeof code === "string" && /^E[A-Z]+$/.test(code)) || (error instanceof Error && !isNotConnectionError(error)) || (typeof message === "string" && /Connection is closed|Stream isn't writeable/.test(message));
}

// The app's onError, kept from throwing into ioredis or BullMQ (whose emitters it runs in); else one line on stderr.
function reporter(onError: ((error: Error) => void) | undefined): (error: Error) => void {
  if (onError === undefined) return (error) => console.error(`${error.name}: ${error.message}`);
  return (error) => {
    try {
      onError(error);
    } catch (thrown) {
      process.emitWarning(`RunWorker's onError threw while reporting "${error.message}": ${(thrown as Error)?.message ?? String(thrown)}`, "RunWorkerOnErrorWarning");
    }
  };
}

// The errors the Agent gives for state updates it refuses (a key it lacks, a value its type refuses, messages).
function refusesStateUpdates(error: unknown): boolean {
  // By name: the Agent may come from another copy of the package (its ESM build beside this CommonJS one).
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return name === "StateTypeError" || name === "StateKeyError" || (name === "ConfigurationError" && typeof message === "string" && message.startsWith("Agent.run has stateUpdates"));
}

// The job of BullMQ's "Missing key for job <id>. <command>" (ErrorCode.JobNotExist): Redis no longer has it.
function lostJob(error: Error): string | undefined {
  const { ErrorCode } = require("bullmq") as typeof import("bullmq");
  if ((error as Error & { code?: unknown }).code !== ErrorCode.JobNotExist) return undefined;
  return /^Missing key for job (.+)\. \w+$/.exec(error.message)?.[1];
}

function dataLost(redis: string, queueName: string, jobId: string, cause: Error): RedisDataLostError {
  const runId = legOf(jobId) === undefined ? undefined : jobId.replace(/\.leg\d+$/, "");
  return new RedisDataLostError({
    redis,
    queueName,
    jobId,
    runId,
    cause,
    message: `RunWorker of queue '${queueName}' found no job ${jobId} in Redis at ${redis}: Redis lost the queue's data (a restart without persistence, a FLUSHALL, an evicted key)${runId === undefined ? "" : `, and run ${runId} with it`}. Run Redis with persistence (appendonly yes) and maxmemory-policy noeviction.`,
  });
}

// The leg a job carries, from its id `<runId>.leg<n>` (RunQueue names every job so).
function legOf(jobId: string | undefined): number | undefined {
  const match = /\.leg(\d+)$/.exec(jobId ?? "");
  return match ? Number(match[1]) : undefined;
}

// The model visit the step stops before: the one after the model call this step makes.
function nextModelVisit(checkpoint: AgentSnapshot | undefined): number {
  if (!checkpoint) return 1;
  return checkpoint.next === "tool" ? checkpoint.visits.chatGenerator : checkpoint.visits.chatGenerator + 1;
}

const resultKeys = new Set(["messages", "lastMessage", "exitReason", "stepCount", "usage", "output", "pendingConfirmations", "stopped", "snapshot", "conversation"]);

// The worker's store as a run sees it, telling `onUnreachable` when a call failed with anything but a
// store's own refusal (a ConversationError: a conflict, a bound, a corrupted row). By name: the store
// may come from another copy of the package (its ESM build beside this CommonJS one).
function reachable(store: ConversationStore, onUnreachable: () => void): ConversationStore {
  const watch = <T>(call: Promise<T>): Promise<T> =>
    call.catch((error: unknown) => {
      if (!/^Conversation\w*Error$/.test(String((error as { name?: unknown })?.name))) onUnreachable();
      throw error;
    });
  return {
    load: (threadId) => watch(store.load(threadId)),
    append: (threadId, runId, messages, options) => watch(store.append(threadId, runId, messages, options)),
    listThreads: (options) => store.listThreads(options),
    deleteThread: (threadId) => store.deleteThread(threadId),
    getMetadata: (threadId) => store.getMetadata(threadId),
    setMetadata: (threadId, update) => store.setMetadata(threadId, update),
    close: () => store.close(),
  };
}

function resultJSON(result: AgentResult<StateSchema>): RunResultJSON {
  const state: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) if (!resultKeys.has(key)) setOwn(state, key, value);
  return {
    exitReason: result.exitReason,
    stepCount: result.stepCount,
    usage: result.usage,
    ...(result.output !== undefined && { output: JSON.parse(JSON.stringify(result.output)) as JsonValue }),
    ...(result.stopped !== undefined && { stopped: JSON.parse(JSON.stringify(result.stopped)) as RunStop }),
    ...(result.conversation !== undefined && { conversation: { ...result.conversation } }),
    messages: result.messages.map((m) => m.toJSON()),
    lastMessage: result.lastMessage.toJSON(),
    state: JSON.parse(JSON.stringify(state)) as RunResultJSON["state"],
  };
}

// The BullMQ worker options from RunWorker's, checked.
function workerSettings<S extends StateSchema>(options: RunWorkerOptions<S>) {
  if (typeof (options.agent as { run?: unknown } | undefined)?.run !== "function") {
    throw new ConfigurationError("RunWorker", `RunWorker needs an agent (new Agent({...})), got ${describeKind(options.agent)}.`);
  }
  const store = options.conversationStore as { load?: unknown; append?: unknown } | undefined;
  if (store !== undefined && (typeof store?.load !== "function" || typeof store.append !== "function")) {
    throw new ConfigurationError("RunWorker", `RunWorker has a conversationStore that is not a ConversationStore (an object with load and append), got ${describeKind(store)}; pass a store from toolwright/conversations.`);
  }
  if (options.onError !== undefined && typeof options.onError !== "function") {
    throw new ConfigurationError("RunWorker", `RunWorker has an onError that is not a function, got ${describeKind(options.onError)}; give a function that reports the worker's errors, such as (error) => logger.error(error).`);
  }
  return {
    closeTimeoutMs: positive(options.closeTimeoutMs, 10_000, "closeTimeoutMs"),
    onError: options.onError,
    bullmq: {
      concurrency: positive(options.concurrency, 1, "concurrency"),
      ...(options.limiter !== undefined && { limiter: limiterOf(options.limiter) }),
      lockDuration: positive(options.lockDurationMs, 30_000, "lockDurationMs"),
      stalledInterval: positive(options.stalledIntervalMs, 30_000, "stalledIntervalMs"),
      maxStalledCount: positive(options.maxStalledCount, 3, "maxStalledCount"),
    },
  };
}

function limiterOf(limiter: unknown): { max: number; duration: number } {
  if (typeof limiter !== "object" || limiter === null) {
    throw new ConfigurationError("RunWorker", `RunWorker has a limiter that is not { max, duration }, got ${describeKind(limiter)}; give at most \`max\` steps per \`duration\` ms, e.g. { max: 10, duration: 1000 }.`);
  }
  const { max, duration } = limiter as { max?: unknown; duration?: unknown };
  return { max: positive(max, undefined, "limiter.max"), duration: positive(duration, undefined, "limiter.duration") };
}

// A whole number of at least 1; `fallback` when not given (required when there is none).
function positive(value: unknown, fallback: number | undefined, option: string): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new ConfigurationError("RunWorker", `RunWorker has a ${option} that is not a whole number of at least 1, got ${describeKind(value)}.`);
}

