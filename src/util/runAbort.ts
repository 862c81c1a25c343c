import { abortErrorFrom } from "./abort";

/**
 * The abort plumbing of one run: its abort state, linked to the caller's signal while the run
 * lasts, and one registry of what is waiting on it. A model call, a confirmation or a tool call
 * races the abort by joining the registry (a Set entry), not by adding an `abort` listener of its
 * own: in Node every `addEventListener` / `removeEventListener` pair costs more than the rest of a
 * trivial tool call, and a controller per step gives every step's signal its own hidden class.
 *
 * The run's `signal` — what the chat generator and tools get — comes from an AbortController made
 * the first time it is read (the first model request carries it; a run refused before that makes
 * none). It aborts with the caller's reason when the caller's signal aborts, or with the reason
 * given to `abort` (a step that throws stops the calls still running, and the run ends with that
 * error). The run's own checks read `aborted`, which needs no controller.
 */
export class RunAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  readonly #parent: AbortSignal | undefined;
  readonly #waiting = new Set<() => void>();
  readonly #follow: () => void;

  constructor(parent?: AbortSignal) {
    this.#parent = parent;
    this.#follow = () => this.abort(parent!.reason);
    if (parent?.aborted) this.abort(parent.reason);
    else parent?.addEventListener("abort", this.#follow, { once: true });
  }

  /** The run's signal (made on first read; aborted already if the run is). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why the run was aborted (the caller's reason, or the error of the step that threw). */
  get reason(): unknown {
    return this.#reason;
  }

  /** The error a run rejects with when aborted by its caller: see `abortErrorFrom`. */
  abortError(): Error {
    return abortErrorFrom(this.signal);
  }

  /** Throws the abort reason when the run is aborted (like `AbortSignal#throwIfAborted`). */
  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** Aborts the run (once): its signal, if made, and every pending race. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    // What AbortController#abort() stores without a reason, so that both read the same.
    this.#reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    this.#controller?.abort(this.#reason);
    for (const reject of this.#waiting) reject();
    this.#waiting.clear();
  }

  /**
   * Settles with `promise`, or rejects with `onAbort()` as soon as the run aborts, whichever comes
   * first. The losing promise is left to settle on its own; its outcome is ignored.
   */
  race<T>(promise: Promise<T>, onAbort: () => unknown): Promise<T> {
    if (this.#aborted) {
      promise.catch(() => undefined);
      return Promise.reject(onAbort());
    }
    return new Promise<T>((resolve, reject) => {
      const aborted = () => reject(onAbort());
      this.#waiting.add(aborted);
      promise.then(
        (value) => {
          this.#waiting.delete(aborted);
          resolve(value);
        },
        (error: unknown) => {
          this.#waiting.delete(aborted);
          reject(error);
        },
      );
    });
  }

  /** Unlinks the run from the caller's signal (at the end of the run). */
  dispose(): void {
    this.#parent?.removeEventListener("abort", this.#follow);
  }
}
