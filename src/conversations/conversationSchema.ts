import type { SqlDriver } from "./sqlDriver";

// The schema, version 1. Timestamps are epoch milliseconds (bigint), the precision of a JS Date, so
// a page cursor compares exactly. Every statement is idempotent: migrating twice changes nothing.
const statements = [
  `CREATE TABLE IF NOT EXISTS conversation_threads (
    thread_id text PRIMARY KEY,
    version integer NOT NULL,
    message_count integer NOT NULL,
    title text,
    owner text,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS conversation_threads_by_update ON conversation_threads (updated_at DESC, thread_id)`,
  `CREATE INDEX IF NOT EXISTS conversation_threads_by_owner ON conversation_threads (owner, updated_at DESC, thread_id)`,
  `CREATE TABLE IF NOT EXISTS conversation_messages (
    thread_id text NOT NULL REFERENCES conversation_threads (thread_id) ON DELETE CASCADE,
    seq integer NOT NULL,
    run_id text NOT NULL,
    message jsonb NOT NULL,
    PRIMARY KEY (thread_id, seq))`,
  `CREATE TABLE IF NOT EXISTS conversation_runs (
    thread_id text NOT NULL REFERENCES conversation_threads (thread_id) ON DELETE CASCADE,
    run_id text NOT NULL,
    digest text NOT NULL,
    first_seq integer NOT NULL,
    message_count integer NOT NULL,
    version integer NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (thread_id, run_id))`,
  // Added after version 1 shipped: the state the last append carried (NULL: none).
  `ALTER TABLE conversation_threads ADD COLUMN IF NOT EXISTS state jsonb`,
];

// Any constant: two processes migrating at once take turns (CREATE ... IF NOT EXISTS alone can race).
const migrationLock = 7_310_031;

/**
 * Creates the conversation store's tables (conversation_threads, conversation_messages with
 * (thread_id, seq) and JSONB messages, conversation_runs unique by (thread_id, run_id)) when they
 * are missing, in one transaction under an advisory lock. Safe to run at every start.
 */
export async function migrateSchema(driver: SqlDriver): Promise<void> {
  await driver.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [migrationLock]);
    for (const statement of statements) await tx.query(statement);
  });
}
