import { ChatMessage } from "../chat/chatMessage";
import { checkAppend, checkId, checkList, checkMetadata, encodeCursor, storedState, type ResolvedConversationLimits } from "./conversationLimits";
import type { ConversationMetadata, ConversationStore, ConversationSummary } from "./conversationStore";
import { ConversationConflictError, ConversationCorruptError, ConversationRunConflictError } from "./errors";
import type { SqlDriver, SqlSession } from "./sqlDriver";

const threadColumns = "thread_id, version, message_count, title, owner, created_at, updated_at";

/**
 * The conversation store over SQL, shared by Postgres (pg) and PGlite: parameterised statements
 * only, each append one transaction that locks the thread row (`FOR UPDATE`), so concurrent appends
 * to one thread run one after the other and `expectedVersion` is checked against the committed version.
 */
export function sqlConversationStore(driver: SqlDriver, limits: ResolvedConversationLimits, close: () => Promise<void>): ConversationStore {
  return {
    async load(threadId) {
      checkId(threadId, "threadId", threadId);
      return driver.transaction(async (tx) => {
        // FOR SHARE waits for an append in flight, so the version and the messages are of one commit.
        const [row] = await tx.query(`SELECT ${threadColumns}, state FROM conversation_threads WHERE thread_id = $1 FOR SHARE`, [threadId]);
        if (row === undefined) return { threadId, version: 0, messages: [], metadata: null, state: {} };
        const summary = summaryOf(row, threadId);
        const state = storedState(row.state);
        if (state === undefined) throw new ConversationCorruptError(threadId, "thread", "its state is not a JSON object");
        const rows = await tx.query("SELECT seq, message FROM conversation_messages WHERE thread_id = $1 ORDER BY seq", [threadId]);
        const messages = rows.map((r) => messageOf(threadId, r));
        return { threadId, version: summary.version, messages, metadata: summary.metadata, state };
      });
    },
    async append(threadId, runId, messages, options) {
      const { rows, digest, expected, state } = checkAppend(threadId, runId, messages, options, limits);
      return driver.transaction(async (tx) => {
        const now = Date.now();
        await tx.query("INSERT INTO conversation_threads (thread_id, version, message_count, created_at, updated_at) VALUES ($1, 0, 0, $2, $2) ON CONFLICT (thread_id) DO NOTHING", [threadId, now]);
        const [thread] = await tx.query(`SELECT ${threadColumns} FROM conversation_threads WHERE thread_id = $1 FOR UPDATE`, [threadId]);
        const current = summaryOf(thread, threadId);
        const [run] = await tx.query("SELECT digest, first_seq, version FROM conversation_runs WHERE thread_id = $1 AND run_id = $2", [threadId, runId]);
        if (run !== undefined) {
          if (run.digest !== digest) throw new ConversationRunConflictError(threadId, runId);
          return { version: Number(run.version), appended: false, firstSeq: Number(run.first_seq) };
        }
        if (expected !== undefined && expected !== current.version) throw new ConversationConflictError(threadId, expected, current.version);
        const firstSeq = current.messageCount + 1;
        // One statement for the whole batch: unnest pairs each seq with its JSON text.
        const seqs = rows.map((_, i) => firstSeq + i);
        await tx.query("INSERT INTO conversation_messages (thread_id, seq, run_id, message) SELECT $1, s, $2, m::jsonb FROM unnest($3::integer[], $4::text[]) AS t(s, m)", [threadId, runId, seqs, rows]);
        const version = current.version + 1;
        await tx.query("UPDATE conversation_threads SET version = $2, message_count = $3, updated_at = GREATEST(updated_at, $4), state = CASE WHEN $5::text IS NULL THEN state ELSE $5::jsonb END WHERE thread_id = $1", [threadId, version, current.messageCount + rows.length, now, state ?? null]);
        await tx.query("INSERT INTO conversation_runs (thread_id, run_id, digest, first_seq, message_count, version, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)", [threadId, runId, digest, firstSeq, rows.length, version, now]);
        return { version, appended: true, firstSeq };
      });
    },
    async listThreads(options) {
      const { limit, owner, cursor } = checkList(options);
      const params: unknown[] = [limit + 1];
      const where: string[] = [];
      if (owner !== undefined) {
        params.push(owner);
        where.push(`owner = $${params.length}`);
      }
      if (cursor !== undefined) {
        params.push(cursor.updatedAt, cursor.threadId);
        where.push(`(updated_at < $${params.length - 1} OR (updated_at = $${params.length - 1} AND thread_id > $${params.length}))`);
      }
      // COLLATE "C": thread ids order by code point, as the memory store orders them.
      const rows = await driver.query(`SELECT ${threadColumns} FROM conversation_threads ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY updated_at DESC, thread_id COLLATE "C" LIMIT $1`, params);
      const threads = rows.slice(0, limit).map((row) => summaryOf(row, String(row.thread_id)));
      const last = threads[threads.length - 1];
      return rows.length > limit && last !== undefined ? { threads, nextCursor: encodeCursor({ updatedAt: last.metadata.updatedAt.getTime(), threadId: last.threadId }) } : { threads };
    },
    async deleteThread(threadId) {
      checkId(threadId, "threadId", threadId);
      const rows = await driver.query("DELETE FROM conversation_threads WHERE thread_id = $1 RETURNING thread_id", [threadId]);
      return rows.length > 0;
    },
    async getMetadata(threadId) {
      checkId(threadId, "threadId", threadId);
      const [row] = await driver.query(`SELECT ${threadColumns} FROM conversation_threads WHERE thread_id = $1`, [threadId]);
      return row === undefined ? null : summaryOf(row, threadId).metadata;
    },
    async setMetadata(threadId, update) {
      checkId(threadId, "threadId", threadId);
      checkMetadata(threadId, update);
      const now = Date.now();
      return driver.transaction(async (tx: SqlSession) => {
        await tx.query("INSERT INTO conversation_threads (thread_id, version, message_count, created_at, updated_at) VALUES ($1, 0, 0, $2, $2) ON CONFLICT (thread_id) DO NOTHING", [threadId, now]);
        const [row] = await tx.query(
          `UPDATE conversation_threads SET title = CASE WHEN $2 THEN $3 ELSE title END, owner = CASE WHEN $4 THEN $5 ELSE owner END, updated_at = GREATEST(updated_at, $6) WHERE thread_id = $1 RETURNING ${threadColumns}`,
          [threadId, update.title !== undefined, update.title ?? null, update.owner !== undefined, update.owner ?? null, now],
        );
        return summaryOf(row, threadId).metadata;
      });
    },
    close,
  };
}

function summaryOf(row: Record<string, unknown> | undefined, threadId: string): ConversationSummary {
  const version = Number(row?.version);
  const messageCount = Number(row?.message_count);
  const createdAt = Number(row?.created_at);
  const updatedAt = Number(row?.updated_at);
  const title = row?.title ?? null;
  const owner = row?.owner ?? null;
  if (row === undefined || ![version, messageCount, createdAt, updatedAt].every((n) => Number.isSafeInteger(n) && n >= 0) || (title !== null && typeof title !== "string") || (owner !== null && typeof owner !== "string")) {
    throw new ConversationCorruptError(threadId, "thread", "its version, message count, timestamps, title or owner are not the values the store writes");
  }
  const metadata: ConversationMetadata = { title, owner, createdAt: new Date(createdAt), updatedAt: new Date(updatedAt) };
  return { threadId, version, messageCount, metadata };
}

function messageOf(threadId: string, row: Record<string, unknown>): ChatMessage {
  const seq = Number(row.seq);
  try {
    return ChatMessage.fromJSON(row.message);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split(". Pass what")[0]?.replace(/\.$/, "") ?? "";
    throw new ConversationCorruptError(threadId, seq, reason, { cause: error });
  }
}
