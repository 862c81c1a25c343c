import { ChatGeneratorError } from "../errors";

/**
 * Whether a failed model call is one another provider may answer: a ChatGeneratorError with
 * status 408, 409, 429 or 5xx (what the providers' own retry policies retry), or with no status at
 * all (no usable answer came: a connection error, a timeout or passed deadline, a stream that broke
 * off or sent an error event, a body that is not a completion). Any other status (400, 401, 403,
 * 404, 422) is a problem of the request or the setup that a fallback would hide, and an abort is
 * the caller's decision: neither falls back. This is `FallbackChatGenerator`'s default policy.
 */
export function isTransientFailure(error: unknown): boolean {
  if (!(error instanceof ChatGeneratorError)) return false;
  const status = error.status;
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
