import type { CallLimits } from "./callLimits";
import { isApiError, isConnectionError } from "./sdkErrors";

/** How `sendWithRetries` retries. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** The longest wait before a retry, whatever the server asks for. */
  readonly maxRetryDelayMs: number;
}

/**
 * Sends with `send` (given the attempt's signal and how many retries came before) and retries the
 * failures the SDK retries, after `retryDelayMs`. Every wait goes through `limits`, so an abort or
 * the deadline ends it at once; a retry whose wait would outlast the deadline is not made, and the
 * last failure is thrown instead.
 */
export async function sendWithRetries<T>(send: (signal: AbortSignal, retry: number) => PromiseLike<T>, limits: CallLimits, options: RetryOptions): Promise<T> {
  for (let retry = 0; ; retry++) {
    limits.throwIfAborted();
    try {
      return await limits.wait(send(limits.attemptSignal(), retry));
    } catch (error) {
      if (limits.aborted || retry >= options.maxRetries || !isRetryable(error)) throw error;
      const delay = retryDelayMs(error, retry, options.maxRetryDelayMs);
      if (delay >= limits.remainingMs) throw error;
      await limits.sleep(delay);
    }
  }
}

/**
 * Whether the SDK would retry this failure: a connection error or timeout, or a status it retries
 * (408, 409, 429, 5xx) unless the server's `x-should-retry` header says otherwise.
 */
export function isRetryable(error: unknown): boolean {
  if (isConnectionError(error)) return true;
  if (!isApiError(error) || error.status === undefined) return false;
  const shouldRetry = error.headers?.get("x-should-retry");
  if (shouldRetry === "true") return true;
  if (shouldRetry === "false") return false;
  return error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
}

/**
 * The wait before retry number `retry` (0 for the first): the server's `retry-after-ms`, else its
 * `retry-after` (seconds or an HTTP date), else the SDK's exponential backoff (0.5 s doubling up
 * to 8 s, minus up to 25 % jitter); never below 0 nor above `maxRetryDelayMs`.
 */
export function retryDelayMs(error: unknown, retry: number, maxRetryDelayMs: number): number {
  const asked = isApiError(error) ? serverDelayMs(error.headers) : undefined;
  const delay = asked ?? Math.min(500 * 2 ** retry, 8000) * (1 - Math.random() * 0.25);
  return Math.min(Math.max(0, delay), maxRetryDelayMs);
}

function serverDelayMs(headers: Headers | undefined): number | undefined {
  const ms = parseFloat(headers?.get("retry-after-ms") ?? "");
  if (!Number.isNaN(ms)) return ms;
  const retryAfter = headers?.get("retry-after") ?? "";
  const seconds = parseFloat(retryAfter);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
