import type { PGlite } from "@electric-sql/pglite";
import type { Client, Pool, PoolClient } from "pg";
import { pgliteDriver } from "./pgliteConversationStore";
import { postgresDriver } from "./postgresConversationStore";
import { migrateSchema } from "./conversationSchema";

/** Where `migrateConversationStore` creates the tables: a pg Pool or Client, or a PGlite database. */
export type ConversationDatabase = { readonly pool: Pool } | { readonly client: Client | PoolClient } | { readonly db: PGlite };

/**
 * Creates the conversation store's tables when missing: `conversation_threads` (id, version,
 * message count, title, owner, timestamps), `conversation_messages` (JSONB, keyed by (thread_id,
 * seq)) and `conversation_runs` (unique by (thread_id, run_id): what makes an append idempotent).
 * One transaction under an advisory lock, so replicas may all run it at start.
 */
export async function migrateConversationStore(database: ConversationDatabase): Promise<void> {
  await migrateSchema("db" in database ? pgliteDriver(database.db) : postgresDriver(database));
}
