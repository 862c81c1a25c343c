import { retryAfterMs } from "../retryAfterMs";
import { isApiError, isConnectionError } from "./sdkErrors";

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

/** The wait an SDK error's response asks for before a retry (its `retry-after-ms` or `retry-after` header), in ms, or `undefined`. */
export function retryAfterMsOf(error: unknown): number | undefined {
  return isApiError(error) ? retryAfterMs((name) => error.headers?.get(name)) : undefined;
}
