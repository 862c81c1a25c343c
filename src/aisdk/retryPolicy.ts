import { retryAfterMs } from "../chat/retryAfterMs";
import { isApiCallError } from "./toChatGeneratorError";

/** Whether the provider's failure may pass on a retry: an `APICallError` that says it is retryable (connection errors, 408, 409, 429, 5xx). */
export function isRetryable(error: unknown): boolean {
  return isApiCallError(error) && error.isRetryable === true;
}

/** The wait an `APICallError`'s response asks for before a retry (its `retry-after-ms` or `retry-after` header), in ms, or `undefined`. */
export function retryAfterMsOf(error: unknown): number | undefined {
  const headers = responseHeadersOf(error);
  return headers && retryAfterMs((name) => header(headers, name));
}

// The AI SDK lower-cases header names (it builds the record from fetch's Headers).
function header(headers: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = Object.hasOwn(headers, name) ? headers[name] : undefined;
  return typeof value === "string" ? value : undefined;
}

// The provider's response headers of a failed call, when it has any.
function responseHeadersOf(error: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isApiCallError(error)) return undefined;
  const headers = error.responseHeaders;
  return typeof headers === "object" && headers !== null ? (headers as Record<string, unknown>) : undefined;
}
