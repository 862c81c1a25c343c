import { AbortError } from "../errors";

/** The error a run rejects with when its signal aborts: the signal's reason if it is an Error named AbortError, else an `AbortError`. */
export function abortErrorFrom(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new AbortError("The agent run was aborted.", { cause: reason });
}

/**
 * Settles with `promise`, or rejects as soon as `signal` aborts (with `onAbort()`), whichever
 * comes first. The losing promise is left to settle on its own and its outcome is ignored.
 */
export function raceWithSignal<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => Error): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(onAbort());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}
