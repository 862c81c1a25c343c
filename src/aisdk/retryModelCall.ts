import type { CallLimits } from "../chat/callLimits";
import { isRetryable, responseHeadersOf } from "./toChatGeneratorError";

/** How `retryModelCall` retries. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** The longest wait before a retry, whatever the provider asks for. */
  readonly maxRetryDelayMs: number;
}

/**
 * Calls `send` (given the attempt's signal) and retries the failures the provider marks retryable
 * (`APICallError.isRetryable`: connection errors, 408, 409, 429, 5xx), after `retryDelayMs`. The
 * AI SDK retries in `generateText`, not in the model, so a model called directly retries nothing
 * itself. Every wait goes through `limits`, so an abort or the deadline ends it at once; a retry
 * whose wait would outlast the deadline is not made, and the last failure is thrown instead.
 */
export async function retryModelCall<T>(send: (signal: AbortSignal) => PromiseLike<T>, limits: CallLimits, options: RetryOptions): Promise<T> {
  for (let retry = 0; ; retry++) {
    limits.throwIfAborted();
    try {
      return await limits.wait(invoke(send, limits.attemptSignal()));
    } catch (error) {
      if (limits.aborted || retry >= options.maxRetries || !isRetryable(error)) throw error;
      const delay = retryDelayMs(error, retry, options.maxRetryDelayMs);
      if (delay >= limits.remainingMs) throw error;
      await limits.sleep(delay);
    }
  }
}

/**
 * The wait before retry number `retry` (0 for the first): the provider's `retry-after-ms`, else its
 * `retry-after` (seconds or an HTTP date), else an exponential backoff (0.5 s doubling up to 8 s,
 * minus up to 25 % jitter, as the OpenAI generator waits); never below 0 nor above `maxRetryDelayMs`.
 */
export function retryDelayMs(error: unknown, retry: number, maxRetryDelayMs: number): number {
  const asked = serverDelayMs(responseHeadersOf(error));
  const delay = asked ?? Math.min(500 * 2 ** retry, 8000) * (1 - Math.random() * 0.25);
  return Math.min(Math.max(0, delay), maxRetryDelayMs);
}

// A model whose method throws instead of rejecting fails the attempt the same way.
function invoke<T>(send: (signal: AbortSignal) => PromiseLike<T>, signal: AbortSignal): Promise<T> {
  try {
    return Promise.resolve(send(signal));
  } catch (error) {
    return Promise.reject(error);
  }
}

function serverDelayMs(headers: Readonly<Record<string, unknown>> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = parseFloat(header(headers, "retry-after-ms"));
  if (!Number.isNaN(ms)) return ms;
  const retryAfter = header(headers, "retry-after");
  const seconds = parseFloat(retryAfter);
  if (!Number.isNaN(seconds)) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : date - Date.now();
}

// The AI SDK lower-cases header names (it builds the record from fetch's Headers).
function header(headers: Readonly<Record<string, unknown>>, name: string): string {
  const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
  return typeof value === "string" ? value : "";
}
