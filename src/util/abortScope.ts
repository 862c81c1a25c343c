import { AbortError } from "../errors";

/** How an AbortScope follows its parent signal and limits its time. */
export interface AbortScopeOptions {
  /** The scope's time limit, in ms from its creation: when it passes, the scope aborts with `onTimeout()`. */
  readonly timeoutMs?: number;
  /** The reason the scope aborts with when `timeoutMs` passes; default the platform's `AbortError` DOMException. */
  readonly onTimeout?: () => unknown;
  /** The reason the scope aborts with when its parent signal aborts, made from the parent's reason; default the parent's reason itself. */
  readonly parentReason?: (reason: unknown) => unknown;
  /** The longest a wait through `raceIdle` may last, in ms: a longer one aborts the scope with `onIdle()`. */
  readonly idleTimeoutMs?: number;
  /** The reason the scope aborts with when a wait through `raceIdle` outlasts `idleTimeoutMs`. */
  readonly onIdle?: () => unknown;
}

/**
 * An abort scope: one piece of work (a run, a model call, a tool call) that aborts when its parent
 * signal does, when its time limit passes, or when told to, and everything that waits on it. A wait
 * races the abort by joining a Set, not by adding an `abort` listener of its own: in Node every
 * `addEventListener` / `removeEventListener` pair costs more than the rest of a trivial tool call,
 * so a scope adds exactly one listener to its parent, whatever the number of waits, and `dispose()`
 * removes it (a parent shared by any number of scopes does not collect listeners).
 *
 * Its `signal` — what a request or a tool gets — comes from an AbortController made the first time
 * it is read (work refused before that makes none); the scope's own checks read `aborted`, which
 * needs no controller.
 */
export class AbortScope {
  readonly #parent: AbortSignal | undefined;
  readonly #options: AbortScopeOptions;
  readonly #waiting = new Set<() => void>();
  readonly #children = new Set<AbortController>();
  readonly #follow: (() => void) | undefined;
  readonly #deadlineAt: number;
  #timer: NodeJS.Timeout | undefined;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** Links the scope to `parent` (when given) and arms its time limit (when `options.timeoutMs` is given). */
  constructor(parent?: AbortSignal, options: AbortScopeOptions = {}) {
    this.#parent = parent;
    this.#options = options;
    this.#deadlineAt = options.timeoutMs === undefined ? Infinity : performance.now() + options.timeoutMs;
    if (parent?.aborted) this.abort(this.#fromParent(parent.reason));
    else if (parent) parent.addEventListener("abort", (this.#follow = () => this.abort(this.#fromParent(parent.reason))), { once: true });
    if (options.timeoutMs !== undefined && !this.#aborted) this.#timer = setTimeout(() => this.abort(options.onTimeout?.()), options.timeoutMs);
  }

  /** The scope's signal (made on first read; aborted already, with the scope's reason, if the scope is). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * A new signal that aborts when the scope does, with its reason: for a request that adds a
   * listener to its signal and never removes it (the `openai` SDK does), so that retries do not
   * collect listeners on one signal. No listener is added; the scope aborts it directly.
   */
  childSignal(): AbortSignal {
    const controller = new AbortController();
    if (this.#aborted) controller.abort(this.#reason);
    else this.#children.add(controller);
    return controller.signal;
  }

  /** Whether the scope was aborted (by its parent, its time limit, an idle wait or `abort`). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why the scope was aborted: the reason given to `abort`, the parent's (as `parentReason` made it), `onTimeout()` or `onIdle()`. */
  get reason(): unknown {
    return this.#reason;
  }

  /** Milliseconds left before the time limit (`Infinity` without one). */
  get remainingMs(): number {
    return this.#deadlineAt - performance.now();
  }

  /** The error to reject with once aborted: the reason when it is an Error named AbortError, else an `AbortError` whose cause is the reason. */
  abortError(): Error {
    const reason = this.#reason;
    if (reason instanceof Error && reason.name === "AbortError") return reason;
    return new AbortError(undefined, { cause: reason });
  }

  /** Throws the abort's reason once the scope is aborted (like `AbortSignal#throwIfAborted`). */
  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** Aborts the scope (once): clears its time limit, aborts its signal (if made) and rejects every pending race. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    // What AbortController#abort() stores without a reason, so that both read the same.
    this.#reason = reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    clearTimeout(this.#timer);
    this.#controller?.abort(this.#reason);
    for (const child of this.#children) child.abort(this.#reason);
    this.#children.clear();
    for (const reject of this.#waiting) reject();
    this.#waiting.clear();
  }

  /**
   * Settles with `promise`, or rejects with `onAbort()` (default: the abort's reason) as soon as the
   * scope aborts, whichever comes first. The losing promise is left to settle on its own; its
   * outcome is ignored.
   */
  race<T>(promise: PromiseLike<T>, onAbort: () => unknown = () => this.#reason): Promise<T> {
    if (this.#aborted) {
      promise.then(undefined, () => undefined);
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

  /** Like `race` (rejecting with the abort's reason), and aborts the scope with `onIdle()` when `promise` takes longer than `idleTimeoutMs`. */
  async raceIdle<T>(promise: PromiseLike<T>): Promise<T> {
    const { idleTimeoutMs, onIdle } = this.#options;
    if (idleTimeoutMs === undefined) return this.race(promise);
    const timer = setTimeout(() => this.abort(onIdle?.()), idleTimeoutMs);
    try {
      return await this.race(promise);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits `ms`, ending at once (and clearing its timer) with the abort's reason when the scope aborts. */
  async sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.race(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Unlinks the scope from its parent, clears its time limit and forgets its child signals (at the end of its work); nothing is aborted. */
  dispose(): void {
    if (this.#follow) this.#parent!.removeEventListener("abort", this.#follow);
    clearTimeout(this.#timer);
    this.#children.clear();
  }

  #fromParent(reason: unknown): unknown {
    const map = this.#options.parentReason;
    return map ? map(reason) : reason;
  }
}
