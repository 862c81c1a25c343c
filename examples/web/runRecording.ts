/**
 * One run's events, kept while it lasts so that any number of readers can follow it from its first
 * event: the reply's own connection, and the reconnection of a page reloaded mid-stream. The run is
 * read by the recording, never by a connection, so a reader that leaves (a closed tab) does not stop it.
 */
export class RunRecording<TEvent> {
  readonly #events: TEvent[] = [];
  readonly #wakers = new Set<() => void>();
  #failure: { error: unknown } | undefined;
  #done = false;
  /** Settles when the run has ended, whichever way. */
  readonly finished: Promise<void>;

  /** Starts reading `events` (already started by the caller with `first`) to the end. */
  constructor(first: IteratorResult<TEvent>, events: AsyncIterator<TEvent>) {
    this.finished = this.#record(first, events);
  }

  /** Whether the run is still going. */
  get running(): boolean {
    return !this.#done;
  }

  /** The run's events from its first one, then each new one as it comes, until the run ends. */
  async *follow(): AsyncGenerator<TEvent> {
    for (let next = 0; ; next++) {
      while (next >= this.#events.length) {
        if (this.#failure) throw this.#failure.error;
        if (this.#done) return;
        await new Promise<void>((wake) => this.#wakers.add(wake));
      }
      yield this.#events[next]!;
    }
  }

  async #record(first: IteratorResult<TEvent>, events: AsyncIterator<TEvent>): Promise<void> {
    try {
      for (let next = first; !next.done; next = await events.next()) this.#push(next.value);
    } catch (error) {
      this.#failure = { error };
    } finally {
      this.#done = true;
      this.#wake();
    }
  }

  #push(event: TEvent): void {
    this.#events.push(event);
    this.#wake();
  }

  #wake(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    for (const wake of wakers) wake();
  }
}
