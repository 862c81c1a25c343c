import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Agent } from "../agent/agent";
import type { AgentResult, AgentRunOptions } from "../agent/agentTypes";
import { BreakpointError } from "../agent/breakpoint";
import type { AgentSnapshot } from "../agent/snapshot";
import { ChatMessage } from "../chat/chatMessage";
import type { StreamingChunk } from "../chat/streaming";
import { ConfigurationError } from "../errors";
import type { StateSchema } from "../state/stateSchema";
import { describeKind } from "../util/describeValue";
import { setOwn } from "../util/ownProperty";
import { bullmqConnection, newRedisClient, type RunStoreOptions } from "./connection";
import type { RunFailure, RunResultJSON } from "./runEvents";
import type { JsonValue } from "../state/jsonCodec";
import type { RunJobData } from "./runQueue";
import { type RunRecord, RunStore } from "./runStore";

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
   * step of the leg) may be lost before the run fails. Default 3. A worker stalled longer than
   * `lockDurationMs` (a blocked event loop) looks lost too, and its step may then run twice.
   */
  maxStalledCount?: number;
}

/**
 * Runs queued runs with an Agent, one step (one model call and its tool calls) per BullMQ job
 * fetch: the run is checkpointed in Redis after the model's reply and after the tool calls, its
 * events go to the run's Stream, a pause stores its snapshot and ends the job, and between steps
 * the job goes back to the queue, so the rate limit counts model calls and a lost worker costs at
 * most the step in flight.
 */
export class RunWorker<S extends StateSchema = StateSchema> {
  readonly #store: RunStore;
  readonly #agent: Agent<S, string>;
  readonly #worker: Worker<RunJobData>;
  readonly #subscriber: Redis;
  readonly #running = new Map<string, AbortController>();
  #closed: Promise<void> | undefined;

  constructor(options: RunWorkerOptions<S>) {
    // The worker's own options are checked before the store opens its Redis connection, so that a
    // configuration error leaves nothing open (options that are not an object are the store's to refuse).
    const settings = typeof options === "object" && options !== null ? workerSettings(options) : undefined;
    this.#store = new RunStore(options, "RunWorker");
    this.#agent = options.agent;
    const { Worker: BullWorker, WaitingError } = require("bullmq") as typeof import("bullmq");
    this.#worker = new BullWorker<RunJobData>(
      this.#store.queueName,
      async (job, token) => {
        if (await this.#step(job)) {
          await this.#store.markStatus(job.data.runId, "queued");
          await job.moveToWait(token);
          throw new WaitingError();
        }
      },
      {
        connection: bullmqConnection(options.connection),
        prefix: this.#store.prefix,
        ...settings,
      },
    );
    // A step BullMQ gave up on (lost more than maxStalledCount times, or an error outside the run such
    // as Redis going away) ends its run as failed rather than leaving it running forever.
    this.#worker.on("failed", (job, error) => {
      if (!job) return;
      const failure: RunFailure = { name: error.name, message: `the step could not be completed: ${error.message}` };
      void this.#store.finish(job.data.runId, { status: "failed", error: failure }, { type: "failed", error: failure }).catch(() => undefined);
    });
    // A cancel from any replica reaches the worker running the run.
    this.#subscriber = newRedisClient(options.connection);
    void this.#subscriber.subscribe(this.#store.keys.cancelChannel);
    this.#subscriber.on("message", (_channel: string, runId: string) => this.#running.get(runId)?.abort(new Error(`run '${runId}' was cancelled`)));
  }

  /** The BullMQ worker (for its events: `failed`, `error`, `stalled`). */
  get bullWorker(): Worker<RunJobData> {
    return this.#worker;
  }

  /** Stops taking steps, waits for the running ones, and closes the connections. Calling it again waits for the same close. */
  close(): Promise<void> {
    return (this.#closed ??= this.#close());
  }

  async #close(): Promise<void> {
    await this.#worker.close();
    await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
    await this.#store.close();
  }

  // Runs the run's next step; true when more steps follow.
  async #step(job: Job<RunJobData>): Promise<boolean> {
    const { runId } = job.data;
    // Registered before the record is read, so that a cancel published from now on reaches this step;
    // one published before is in the record's cancel flag.
    const controller = new AbortController();
    this.#running.set(runId, controller);
    const appended: Array<Promise<unknown>> = [];
    try {
      const record = await this.#store.read(runId);
      if (!record || record.status === "done" || record.status === "failed" || record.status === "cancelled" || record.status === "paused") return false;
      if (record.cancelRequested) {
        await this.#store.finish(runId, { status: "cancelled" }, { type: "cancelled" });
        return false;
      }
      await this.#store.markStatus(runId, "running");
      // Still "running": the worker that ran the last step was lost before it handed the run back.
      if (record.status === "running") await this.#store.append(runId, { type: "recovered", stepCount: record.checkpoint?.stepCount ?? 0 });
      return await this.#runStep(runId, record, controller, appended);
    } finally {
      this.#running.delete(runId);
    }
  }

  // Runs the agent from where the record stands to the next model call; true when more steps follow.
  async #runStep(runId: string, record: RunRecord, controller: AbortController, appended: Array<Promise<unknown>>): Promise<boolean> {
    try {
      const result = await this.#agent.run({
        ...this.#startOf(record),
        runId,
        signal: controller.signal,
        breakpoint: { at: "chat_generator", visit: nextModelVisit(record.checkpoint) },
        streamingCallback: (chunk: StreamingChunk) => void appended.push(this.#store.append(runId, chunk)),
        onCheckpoint: async (snapshot: AgentSnapshot) => {
          if (!(await this.#store.checkpoint(runId, snapshot))) controller.abort(new Error(`run '${runId}' was cancelled`));
        },
      } as AgentRunOptions as Parameters<Agent<S, string>["run"]>[0]);
      await Promise.all(appended);
      await this.#finished(runId, result as AgentResult<StateSchema>);
      return false;
    } catch (error) {
      await Promise.allSettled(appended);
      if (error instanceof BreakpointError) return true;
      if (controller.signal.aborted) {
        await this.#store.finish(runId, { status: "cancelled" }, { type: "cancelled" });
        return false;
      }
      const failure: RunFailure = { name: (error as Error)?.name ?? "Error", message: (error as Error)?.message ?? String(error) };
      await this.#store.finish(runId, { status: "failed", error: failure }, { type: "failed", error: failure });
      return false;
    }
  }

  // Where the step starts: the last checkpoint (with a resume's decisions), else the run's input.
  // The system prompt is in the conversation from the first step on.
  #startOf(record: RunRecord): Record<string, unknown> {
    const { systemPrompt, ...options } = record.options;
    if (record.checkpoint) return { ...options, snapshot: record.checkpoint, ...(record.decisions && { decisions: record.decisions }) };
    const input = record.input ?? { messages: [], state: {} };
    return { ...input.state, ...options, ...(systemPrompt !== undefined && { systemPrompt }), messages: input.messages.map((m) => ChatMessage.fromJSON(m)) };
  }

  async #finished(runId: string, result: AgentResult<StateSchema>): Promise<void> {
    if (result.exitReason === "confirmation_required") {
      const pendingConfirmations = result.pendingConfirmations!;
      await this.#store.finish(runId, { status: "paused", pendingConfirmations }, { type: "paused", pendingConfirmations }, { checkpoint: JSON.stringify(result.snapshot), pending: JSON.stringify(pendingConfirmations) });
      return;
    }
    const json = resultJSON(result);
    await this.#store.finish(runId, { status: "done", result: json }, { type: "result", result: json });
  }
}

// The model visit the step stops before: the one after the model call this step makes.
function nextModelVisit(checkpoint: AgentSnapshot | undefined): number {
  if (!checkpoint) return 1;
  return checkpoint.next === "tool" ? checkpoint.visits.chatGenerator : checkpoint.visits.chatGenerator + 1;
}

const resultKeys = new Set(["messages", "lastMessage", "exitReason", "stepCount", "usage", "output", "pendingConfirmations", "snapshot"]);

function resultJSON(result: AgentResult<StateSchema>): RunResultJSON {
  const state: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) if (!resultKeys.has(key)) setOwn(state, key, value);
  return {
    exitReason: result.exitReason,
    stepCount: result.stepCount,
    usage: result.usage,
    ...(result.output !== undefined && { output: JSON.parse(JSON.stringify(result.output)) as JsonValue }),
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
  return {
    concurrency: positive(options.concurrency, 1, "concurrency"),
    ...(options.limiter !== undefined && { limiter: limiterOf(options.limiter) }),
    lockDuration: positive(options.lockDurationMs, 30_000, "lockDurationMs"),
    stalledInterval: positive(options.stalledIntervalMs, 30_000, "stalledIntervalMs"),
    maxStalledCount: positive(options.maxStalledCount, 3, "maxStalledCount"),
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

