/**
 * The abort plumbing of one run: one AbortController, linked to the caller's signal while the run
 * lasts, and one registry of what is waiting on it. A model call, a confirmation or a tool call
 * races the abort by joining the registry (a Set entry), not by adding an `abort` listener of its
 * own: in Node every `addEventListener` / `removeEventListener` pair costs more than the rest of a
 * trivial tool call, and a controller per step gives every step's signal its own hidden class.
 *
 * Tools and the chat generator get `signal`; it aborts with the caller's reason when the caller's
 * signal aborts, or with the reason given to `abort` (a step that throws stops the calls still
 * running, and the run ends with that error).
 */
export class RunAbort {
  readonly signal: AbortSignal;
  readonly #controller: AbortController;
  readonly #parent: AbortSignal | undefined;
  readonly #waiting = new Set<() => void>();
  readonly #follow: () => void;

  constructor(parent?: AbortSignal) {
    this.#controller = new AbortController();
    this.signal = this.#controller.signal;
    this.#parent = parent;
    this.#follow = () => this.abort(parent!.reason);
    if (parent?.aborted) this.abort(parent.reason);
    else parent?.addEventListener("abort", this.#follow, { once: true });
  }

  /** Aborts the run's signal (once) and rejects every pending race. */
  abort(reason?: unknown): void {
    if (this.signal.aborted) return;
    this.#controller.abort(reason);
    for (const reject of this.#waiting) reject();
    this.#waiting.clear();
  }

  /**
   * Settles with `promise`, or rejects with `onAbort()` as soon as the run aborts, whichever comes
   * first. The losing promise is left to settle on its own; its outcome is ignored.
   */
  race<T>(promise: Promise<T>, onAbort: () => unknown): Promise<T> {
    if (this.signal.aborted) {
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
