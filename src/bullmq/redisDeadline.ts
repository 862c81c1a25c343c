import { RunWaitError } from "./errors";

/** What every RunQueue call that waits on Redis takes. */
export interface RunCallOptions {
  /** Gives up after this many ms with a RunWaitError. Default: no limit on the whole call (each Redis request is still bounded by the queue's `requestTimeoutMs`). */
  timeoutMs?: number;
  /** Gives up when it aborts, with a RunWaitError whose `cause` is the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The bounds of one RunQueue call: its own timeout and signal, and the longest Redis may leave one
 * request unanswered. A request given up on keeps its handler, so its late failure is not unhandled.
 */
export class RedisDeadline {
  readonly #operation: string;
  readonly #runId: string | undefined;
  readonly #requestTimeoutMs: number;
  readonly #timeoutMs: number | undefined;
  readonly #endsAt: number;
  readonly #signal: AbortSignal | undefined;

  readonly #redis: () => string;

  /** `redis` describes the server the call waits on (`describeRedis`), read only when a message needs it. */
  constructor(operation: string, runId: string | undefined, requestTimeoutMs: number, options: RunCallOptions, redis: () => string) {
    this.#operation = operation;
    this.#redis = redis;
    this.#runId = runId;
    this.#requestTimeoutMs = requestTimeoutMs;
    this.#timeoutMs = options.timeoutMs;
    this.#endsAt = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    this.#signal = options.signal;
  }

  /** The call's signal, for waits that end it quietly. */
  get signal(): AbortSignal | undefined {
    return this.#signal;
  }

  /** Throws the RunWaitError of an aborted signal or a passed timeout. */
  check(): void {
    if (this.#signal?.aborted) throw this.#aborted();
    if (Date.now() >= this.#endsAt) throw this.#timedOut();
  }

  /**
   * Waits for one Redis request (`extraMs` more for a blocking read that waits on purpose), or
   * rejects with RunWaitError when the call's bounds pass first.
   */
  async wait<T>(request: Promise<T>, extraMs = 0): Promise<T> {
    request.catch(() => undefined);
    this.check();
    const callLeft = this.#endsAt - Date.now();
    const requestLimit = this.#requestTimeoutMs + extraMs;
    const byCall = callLeft <= requestLimit;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        request,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(byCall ? this.#timedOut() : this.#unanswered(requestLimit)), Math.max(0, byCall ? callLeft : requestLimit));
          onAbort = () => reject(this.#aborted());
          this.#signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.#signal?.removeEventListener("abort", onAbort);
    }
  }

  #subject(): string {
    return this.#runId === undefined ? this.#operation : `${this.#operation} of run '${this.#runId}'`;
  }

  #aborted(): RunWaitError {
    return new RunWaitError({ operation: this.#operation, runId: this.#runId, reason: "aborted", message: `${this.#subject()} was given up: its signal aborted.`, cause: this.#signal?.reason });
  }

  #timedOut(): RunWaitError {
    return new RunWaitError({
      operation: this.#operation,
      runId: this.#runId,
      reason: "timeout",
      waitedMs: this.#timeoutMs,
      message: `${this.#subject()} did not complete within its timeoutMs of ${this.#timeoutMs} ms; give a longer timeoutMs, or check that Redis at ${this.#redis()} is up and answering.`,
    });
  }

  #unanswered(waitedMs: number): RunWaitError {
    return new RunWaitError({
      operation: this.#operation,
      runId: this.#runId,
      reason: "unanswered",
      waitedMs,
      message: `${this.#subject()} got no answer from Redis at ${this.#redis()} within ${waitedMs} ms (requestTimeoutMs); check that Redis is up and reachable, or give the RunQueue a longer requestTimeoutMs.`,
    });
  }
}
