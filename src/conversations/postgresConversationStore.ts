import type { Client, Pool, PoolClient } from "pg";
import { ConfigurationError } from "../errors";
import { type ConversationLimits, resolveLimits } from "./conversationLimits";
import type { ConversationStore } from "./conversationStore";
import { sqlConversationStore } from "./sqlConversationStore";
import { serialized, type SqlDriver, type SqlSession } from "./sqlDriver";

/** Options of `postgresConversationStore`: a pg `Pool` (each transaction takes its own connection) or one connected `Client`. */
export type PostgresConversationStoreOptions = ({ readonly pool: Pool; readonly client?: never } | { readonly client: Client | PoolClient; readonly pool?: never }) & {
  /** Bounds on appends (see ConversationLimits). */
  readonly limits?: ConversationLimits;
};

/**
 * A conversation store on Postgres through `pg`. The tables must exist: run
 * `migrateConversationStore({ pool })` once at start (it is idempotent). The pool or client stays
 * yours: `close()` does not end it.
 */
export function postgresConversationStore(options: PostgresConversationStoreOptions): ConversationStore {
  return sqlConversationStore(postgresDriver(options), resolveLimits(options.limits), async () => {});
}

/** The SqlDriver of a pg Pool or Client. */
export function postgresDriver(options: { readonly pool?: Pool; readonly client?: Client | PoolClient }): SqlDriver {
  const sessionOf = (connection: Client | PoolClient | Pool): SqlSession => ({
    async query(text, params) {
      const result = await connection.query(text, params === undefined ? undefined : [...params]);
      return result.rows as Record<string, unknown>[];
    },
  });
  // Resolves `broken` when the ROLLBACK failed too: that connection may still be in the transaction.
  const inTransaction = async <T>(connection: Client | PoolClient, work: (tx: SqlSession) => Promise<T>, broken?: { value: boolean }): Promise<T> => {
    await connection.query("BEGIN");
    try {
      const result = await work(sessionOf(connection));
      await connection.query("COMMIT");
      return result;
    } catch (error) {
      await connection.query("ROLLBACK").catch(() => {
        if (broken !== undefined) broken.value = true;
      });
      throw error;
    }
  };
  const { pool, client } = options;
  if (pool !== undefined) {
    return {
      ...sessionOf(pool),
      async transaction(work) {
        const connection = await pool.connect();
        const broken = { value: false };
        try {
          return await inTransaction(connection, work, broken);
        } finally {
          connection.release(broken.value);
        }
      },
    };
  }
  if (client === undefined) throw new ConfigurationError("postgresConversationStore", "postgresConversationStore needs { pool } or { client }: pass a pg Pool or a connected pg Client.");
  const turn = serialized();
  return {
    query: (text, params) => turn(() => sessionOf(client).query(text, params)),
    transaction: (work) => turn(() => inTransaction(client, work)),
  };
}
