import { ProviderError, UsageError } from "../errors";

/** No run with this id is in Redis: it was never started, or it ended (or stayed paused) longer ago than its time to live. */
export class RunNotFoundError extends UsageError {
  readonly runId: string;

  constructor(runId: string, message: string) {
    super(message);
    this.runId = runId;
  }
}

/**
 * The run is not in a state that allows the request: resuming a run that is not paused (another
 * replica's resume of the same pause won, or it was cancelled), or starting a run whose id is taken.
 */
export class RunStateError extends UsageError {
  readonly runId: string;
  /** The run's status when the request was refused. */
  readonly status: string;

  constructor(runId: string, status: string, message: string) {
    super(message);
    this.runId = runId;
    this.status = status;
  }
}

/**
 * A RunQueue call gave up waiting for Redis: its `timeoutMs` passed, its `signal` aborted, or Redis
 * left one request unanswered for the queue's `requestTimeoutMs` (Redis down, paused or unreachable).
 * What the call asked for may still happen if Redis answers later: `start` with your own `runId`, then
 * `result` or `requeue` it, to find out.
 */
export class RunWaitError extends ProviderError {
  /** The call that gave up: `RunQueue.start`, `RunQueue.result`, … */
  readonly operation: string;
  /** The run it was about, when known. */
  readonly runId: string | undefined;
  /** Why: the call's timeout, its signal, or a Redis request left unanswered. */
  readonly reason: "timeout" | "aborted" | "unanswered";
  /** How long it waited, in ms, for `timeout` and `unanswered`. */
  readonly waitedMs: number | undefined;

  constructor(options: { operation: string; runId: string | undefined; reason: "timeout" | "aborted" | "unanswered"; waitedMs?: number; message: string; cause?: unknown }) {
    super(options.message, { cause: options.cause });
    this.operation = options.operation;
    this.runId = options.runId;
    this.reason = options.reason;
    this.waitedMs = options.waitedMs;
  }
}

/**
 * A RunWorker lost its connection to Redis, or never had one: reported once per outage through the
 * worker's `onError`, not thrown. The worker takes no steps until Redis answers again; ioredis keeps
 * reconnecting, and the worker goes on by itself once it does.
 */
export class RedisConnectionError extends ProviderError {
  /** The Redis that was tried: `host:port`, or its Unix socket path. */
  readonly redis: string;
  /** The BullMQ queue the worker serves. */
  readonly queueName: string;

  constructor(options: { redis: string; queueName: string; message: string; cause: unknown }) {
    super(options.message, { cause: options.cause });
    this.redis = options.redis;
    this.queueName = options.queueName;
  }
}

/**
 * Redis no longer holds a job a RunWorker was working on: its data was lost (a restart without
 * persistence, a FLUSHALL, an evicted key), and the run the job was a step of is gone with it.
 * Reported once per job through the worker's `onError`, not thrown; the worker goes on with other
 * jobs.
 */
export class RedisDataLostError extends ProviderError {
  /** The Redis the worker uses: `host:port`, or its Unix socket path. */
  readonly redis: string;
  /** The BullMQ queue the worker serves. */
  readonly queueName: string;
  /** The BullMQ job that was missing: `<runId>.leg<n>` for a run's step. */
  readonly jobId: string;
  /** The run the job belonged to, when its id says. */
  readonly runId: string | undefined;

  constructor(options: { redis: string; queueName: string; jobId: string; runId: string | undefined; message: string; cause: unknown }) {
    super(options.message, { cause: options.cause });
    this.redis = options.redis;
    this.queueName = options.queueName;
    this.jobId = options.jobId;
    this.runId = options.runId;
  }
}

