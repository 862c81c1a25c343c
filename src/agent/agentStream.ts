import type { StreamingChunk } from "../chat/streaming";

/** What `agent.stream()` yields: every streaming chunk, then the run's result. */
export type AgentStreamEvent<TResult> = StreamingChunk | { readonly type: "result"; readonly result: TResult };

/**
 * An async iterable fed by a running agent: chunks in the order they happen, then the result.
 * A failed run makes the iteration throw; leaving the loop early (`break`) calls `onCancel`, which
 * aborts the run.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #done = false;
  #error: { error: unknown } | undefined;

  constructor(private readonly onCancel: () => void) {}

  push(item: T): void {
    if (this.#done) return;
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#clear();
      resolve({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  end(): void {
    this.#done = true;
    this.#waiting?.({ value: undefined, done: true });
    this.#clear();
  }

  fail(error: unknown): void {
    this.#done = true;
    this.#error = { error };
    this.#failWaiting?.(error);
    this.#clear();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#error) return Promise.reject(this.#error.error);
        if (this.#done) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          this.#waiting = resolve;
          this.#failWaiting = reject;
        });
      },
      return: () => {
        if (!this.#done) this.onCancel();
        this.#done = true;
        this.#items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }

  #clear(): void {
    this.#waiting = undefined;
    this.#failWaiting = undefined;
  }
}
