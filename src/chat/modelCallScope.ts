import { AbortError } from "../errors";
import { AbortScope } from "../util/abortScope";

/** The time limits of one model call, in milliseconds. */
export interface ModelCallLimits {
  /** The whole call: every attempt, every wait before a retry, the response body or stream and the streaming callback. */
  readonly deadlineMs: number;
  /** The longest wait for the next stream chunk (each through the scope's `raceIdle`). */
  readonly streamIdleTimeoutMs: number;
}

/**
 * Opens the abort scope of one model call. It aborts when the caller's `signal` aborts (with an
 * AbortError, "The model request was aborted."), when the deadline passes or when a stream stays
 * silent too long (each with `fault(detail)`, the provider's error naming the model). Every wait of
 * the call goes through the scope (`race`, `raceIdle`, `sleep`), so each ends at once with the
 * abort's reason, and every request's signal (from `childSignal`) aborts with it. It adds one
 * listener to the caller's signal and arms one deadline timer; `closeModelCallScope` removes both.
 */
export function openModelCallScope(signal: AbortSignal | undefined, limits: ModelCallLimits, fault: (detail: string) => Error): AbortScope {
  const { deadlineMs, streamIdleTimeoutMs } = limits;
  return new AbortScope(signal, {
    parentReason: (reason) => new AbortError("The model request was aborted.", { cause: reason }),
    timeoutMs: deadlineMs,
    onTimeout: () => fault(`the call did not finish within deadlineMs (${deadlineMs} ms), so it was aborted; raise deadlineMs to allow longer calls.`),
    idleTimeoutMs: streamIdleTimeoutMs,
    onIdle: () =>
      fault(
        `the stream sent nothing for streamIdleTimeoutMs (${streamIdleTimeoutMs} ms), so it was aborted; raise streamIdleTimeoutMs if the model pauses longer, as reasoning models do before their first token.`,
      ),
  });
}

/**
 * Ends a model call: unlinks its scope from the caller's signal, clears the deadline and aborts any
 * request still in flight. With `completed` (the caller read every response to its end), nothing is
 * in flight and nothing is aborted: an abort costs a few µs, about half of what the AI SDK
 * generator adds to a call.
 */
export function closeModelCallScope(scope: AbortScope, completed = false): void {
  if (!completed) scope.abort();
  scope.dispose();
}
