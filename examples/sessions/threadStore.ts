import * as os from "node:os";
import * as path from "node:path";
import { migrateConversationStore, pgliteConversationStore, postgresConversationStore, type ConversationStore } from "toolwright/conversations";

/**
 * The example's conversation store: Postgres when DATABASE_URL is set (tables created by
 * migrateConversationStore, safe at every start), else PGlite — Postgres in WebAssembly, embedded in
 * this process — keeping its files in `dataDir` (SESSIONS_DATA_DIR, else a folder in the temp
 * directory), so the thread outlives the process.
 */
export async function openThreadStore(dataDir = process.env.SESSIONS_DATA_DIR || path.join(os.tmpdir(), "toolwright-sessions-example")): Promise<{ store: ConversationStore; label: string }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const { Pool } = await import("pg");
    const pool = new Pool({ connectionString: url, max: 4 });
    await migrateConversationStore({ pool });
    const store = postgresConversationStore({ pool });
    // The pool is ours here: closing the store ends it too.
    return { store: { ...store, close: async () => pool.end() }, label: `Postgres at ${new URL(url).host}` };
  }
  return { store: await pgliteConversationStore({ dataDir }), label: `PGlite in ${dataDir}` };
}
