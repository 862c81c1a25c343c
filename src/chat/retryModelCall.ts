import type { AbortScope } from "../util/abortScope";

/** How `retryModelCall` retries, and how it reads a provider's failures. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** The longest wait before a retry, whatever the provider asks for. */
  readonly maxRetryDelayMs: number;
  /** Whether a failure may pass on a retry (the provider's rules). */
  readonly isRetryable: (error: unknown) => boolean;
  /** The wait the failure's response asks for, in ms (see `retryAfterMs`), or `undefined`. */
  readonly retryAfterMs: (error: unknown) => number | undefined;
}

/**
 * Calls `send` (given a signal of the attempt's own, from `scope.childSignal()`, and how many
 * retries came before) and retries the failures `policy.isRetryable` accepts, after
 * `retryDelayMs`. Every wait goes through `scope` (the model call's), so an abort or the deadline
 * ends it at once; a retry whose wait would outlast the deadline is not made, and the last failure
 * is thrown instead. A `send` that throws instead of rejecting fails its attempt the same way.
 */
export async function retryModelCall<T>(send: (signal: AbortSignal, retry: number) => PromiseLike<T>, scope: AbortScope, policy: RetryPolicy): Promise<T> {
  for (let retry = 0; ; retry++) {
    scope.throwIfAborted();
    try {
      return await scope.race(attempt(send, scope.childSignal(), retry));
    } catch (error) {
      if (scope.aborted || retry >= policy.maxRetries || !policy.isRetryable(error)) throw error;
      const delay = retryDelayMs(policy.retryAfterMs(error), retry, policy.maxRetryDelayMs);
      if (delay >= scope.remainingMs) throw error;
      await scope.sleep(delay);
    }
  }
}

/**
 * The wait before retry number `retry` (0 for the first): `askedMs`, what the provider's response
 * asked for, else an exponential backoff (0.5 s doubling up to 8 s, minus up to 25 % jitter, as the
 * `openai` SDK waits); never below 0 nor above `maxRetryDelayMs`.
 */
export function retryDelayMs(askedMs: number | undefined, retry: number, maxRetryDelayMs: number): number {
  const delay = askedMs ?? Math.min(500 * 2 ** retry, 8000) * (1 - Math.random() * 0.25);
  return Math.min(Math.max(0, delay), maxRetryDelayMs);
}

function attempt<T>(send: (signal: AbortSignal, retry: number) => PromiseLike<T>, signal: AbortSignal, retry: number): Promise<T> {
  try {
    return Promise.resolve(send(signal, retry));
  } catch (error) {
    return Promise.reject(error);
  }
}
