/** One way to send parameterised SQL: a pg Pool or Client, or a PGlite database. */
export interface SqlSession {
  /** Runs one statement with `$1`-style parameters and returns its rows. */
  query(text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

/** A session that can also run a function inside one transaction (committed when it returns, rolled back when it throws). */
export interface SqlDriver extends SqlSession {
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
}

/**
 * Runs calls one at a time: a single connection (a pg Client, a PGlite database) must not have a
 * second caller's statements land inside another caller's transaction.
 */
export function serialized(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = tail.then(work, work);
    tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
}
