import { AbortError } from "../errors";

/** The error a run rejects with when its signal aborts: the signal's reason if it is an Error named AbortError, else an `AbortError`. */
export function abortErrorFrom(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new AbortError("The agent run was aborted.", { cause: reason });
}

/** An AbortController that also aborts (with the same reason) when `parent` aborts; `dispose()` unlinks it. */
export interface LinkedAbort {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  dispose(): void;
}

/**
 * Links a new controller to `parent` (and, with `timeoutMs`, to a timer). Cheaper than
 * `AbortSignal.any`, which matters on the per-step path.
 */
export function linkedAbort(parent: AbortSignal, timeoutMs?: number, onTimeout?: () => unknown): LinkedAbort {
  const controller = new AbortController();
  const follow = () => controller.abort(parent.reason);
  let timer: NodeJS.Timeout | undefined;
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", follow, { once: true });
  if (timeoutMs !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => controller.abort(onTimeout?.()), timeoutMs);
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      parent.removeEventListener("abort", follow);
      if (timer) clearTimeout(timer);
    },
  };
}
