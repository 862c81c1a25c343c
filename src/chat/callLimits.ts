import { AbortError } from "../errors";

/** The time limits of one model call, in milliseconds. */
export interface CallLimitsOptions {
  /** The whole call: every attempt, every wait before a retry, the response body or stream and the streaming callback. */
  readonly deadlineMs: number;
  /** The longest wait for the next stream chunk. */
  readonly streamIdleTimeoutMs: number;
}

/**
 * The abort scope of one model call. It aborts when the caller's signal aborts, when the deadline
 * passes or when a stream stays silent too long; every wait of the call goes through `wait`,
 * `waitForChunk` or `sleep`, so each ends at once with the abort's error, and every attempt's
 * signal (from `attemptSignal`) aborts with it. It adds one listener to the caller's signal and
 * arms one deadline timer; `settle()` removes both and aborts what is still in flight.
 */
export class CallLimits {
  readonly #fault: (detail: string) => Error;
  readonly #options: CallLimitsOptions;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #deadlineAt: number;
  readonly #deadlineTimer: NodeJS.Timeout;
  readonly #attempts = new Set<AbortController>();
  readonly #waiting = new Set<(error: Error) => void>();
  #abortError: Error | undefined;
  readonly #onCallerAbort = (): void => this.#abort(new AbortError("The model request was aborted.", { cause: this.#callerSignal?.reason }));

  /** `fault` makes the error of a passed limit from its detail, naming the provider and the model. */
  constructor(fault: (detail: string) => Error, callerSignal: AbortSignal | undefined, options: CallLimitsOptions) {
    this.#fault = fault;
    this.#options = options;
    this.#callerSignal = callerSignal;
    this.#deadlineAt = performance.now() + options.deadlineMs;
    this.#deadlineTimer = setTimeout(
      () => this.#abort(fault(`the call did not finish within deadlineMs (${options.deadlineMs} ms), so it was aborted; raise deadlineMs to allow longer calls.`)),
      options.deadlineMs,
    );
    if (callerSignal?.aborted) this.#onCallerAbort();
    else callerSignal?.addEventListener("abort", this.#onCallerAbort, { once: true });
  }

  /** Whether the call was aborted (by the caller, the deadline or the idle timeout). */
  get aborted(): boolean {
    return this.#abortError !== undefined;
  }

  /** Milliseconds left before the deadline. */
  get remainingMs(): number {
    return this.#deadlineAt - performance.now();
  }

  /** A signal for one attempt's request: it aborts when the call does. */
  attemptSignal(): AbortSignal {
    const controller = new AbortController();
    if (this.#abortError) controller.abort(this.#abortError);
    this.#attempts.add(controller);
    return controller.signal;
  }

  /** Throws the abort's error once the call is aborted. */
  throwIfAborted(): void {
    if (this.#abortError) throw this.#abortError;
  }

  /** The error the call rejects with: the abort's error once the call is aborted, else `error`. */
  errorFor(error: unknown): unknown {
    return this.#abortError ?? error;
  }

  /** Settles with `promise`, or rejects with the abort's error as soon as the call aborts. */
  wait<T>(promise: PromiseLike<T>): Promise<T> {
    if (this.#abortError) {
      promise.then(undefined, () => undefined);
      return Promise.reject(this.#abortError);
    }
    return new Promise<T>((resolve, reject) => {
      this.#waiting.add(reject);
      promise.then(
        (value) => {
          this.#waiting.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.#waiting.delete(reject);
          reject(error);
        },
      );
    });
  }

  /** Like `wait`, and aborts the call when `promise` takes longer than the stream idle timeout. */
  async waitForChunk<T>(promise: PromiseLike<T>): Promise<T> {
    const ms = this.#options.streamIdleTimeoutMs;
    const timer = setTimeout(
      () =>
        this.#abort(
          this.#fault(
            `the stream sent nothing for streamIdleTimeoutMs (${ms} ms), so it was aborted; raise streamIdleTimeoutMs if the model pauses longer, as reasoning models do before their first token.`,
          ),
        ),
      ms,
    );
    try {
      return await this.wait(promise);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits `ms`, ending at once (and clearing its timer) when the call aborts. */
  async sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.wait(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Ends the call: clears the deadline, removes the listener on the caller's signal and aborts any
   * request still in flight. With `completed` (the caller read every response to its end), nothing
   * is in flight and the attempts are not aborted: an abort costs a few µs, about half of what the
   * AI SDK generator adds to a call.
   */
  settle(completed = false): void {
    clearTimeout(this.#deadlineTimer);
    this.#callerSignal?.removeEventListener("abort", this.#onCallerAbort);
    if (!completed) for (const attempt of this.#attempts) attempt.abort();
    this.#attempts.clear();
  }

  #abort(error: Error): void {
    if (this.#abortError) return;
    this.#abortError = error;
    clearTimeout(this.#deadlineTimer);
    for (const attempt of this.#attempts) attempt.abort(error);
    for (const reject of this.#waiting) reject(error);
    this.#waiting.clear();
  }
}
