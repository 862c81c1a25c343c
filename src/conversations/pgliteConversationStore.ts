import type { PGlite, Transaction } from "@electric-sql/pglite";
import { type ConversationLimits, resolveLimits } from "./conversationLimits";
import type { ConversationStore } from "./conversationStore";
import { migrateSchema } from "./conversationSchema";
import { sqlConversationStore } from "./sqlConversationStore";
import { serialized, type SqlDriver, type SqlSession } from "./sqlDriver";

/** Options of `pgliteConversationStore`. */
export interface PgliteConversationStoreOptions {
  /** An open PGlite database to use (it stays yours: `close()` does not close it). */
  readonly db?: PGlite;
  /** Without `db`: where the embedded database keeps its files; in memory when absent. */
  readonly dataDir?: string;
  /** Create the tables when missing (default true). */
  readonly migrate?: boolean;
  /** Bounds on appends (see ConversationLimits). */
  readonly limits?: ConversationLimits;
}

/**
 * A conversation store on PGlite (Postgres compiled to WebAssembly, in this process): the embedded
 * default, nothing to install or start. Without `db` it opens its own, in `dataDir` or in memory,
 * and `close()` closes it. The same SQL as `postgresConversationStore`.
 */
export async function pgliteConversationStore(options: PgliteConversationStoreOptions = {}): Promise<ConversationStore> {
  const limits = resolveLimits(options.limits);
  let db = options.db;
  let owned = false;
  if (db === undefined) {
    const { PGlite: PGliteClass } = require("@electric-sql/pglite") as typeof import("@electric-sql/pglite");
    db = new PGliteClass(options.dataDir);
    owned = true;
  }
  const driver = pgliteDriver(db);
  if (options.migrate !== false) await migrateSchema(driver);
  const opened = db;
  return sqlConversationStore(driver, limits, async () => {
    if (owned && !opened.closed) await opened.close();
  });
}

/** The SqlDriver of a PGlite database. */
export function pgliteDriver(db: PGlite): SqlDriver {
  const sessionOf = (target: PGlite | Transaction): SqlSession => ({
    async query(text, params) {
      const result = await target.query<Record<string, unknown>>(text, params === undefined ? undefined : [...params]);
      return result.rows;
    },
  });
  // One PGlite is one connection: a statement of another caller must not run inside a transaction.
  const turn = serialized();
  return {
    query: (text, params) => turn(() => sessionOf(db).query(text, params)),
    transaction: (work) => turn(() => db.transaction((tx) => work(sessionOf(tx)))),
  };
}
