import type { Redis, RedisOptions } from "ioredis";
import { ChatMessage } from "../chat/chatMessage";
import { checkAppend, checkId, checkList, checkMetadata, type ConversationLimits, encodeCursor, resolveLimits } from "./conversationLimits";
import type { ConversationMetadata, ConversationStore, ConversationSummary } from "./conversationStore";
import { ConversationConflictError, ConversationCorruptError, ConversationRunConflictError } from "./errors";
import { redisConversationKey, redisIndexMember, redisThreadIndexKey } from "./redisConversationKeys";
import { appendScript, deleteScript, listScript, loadScript, type RedisScript, setMetadataScript } from "./redisConversationScripts";

/** Options of `redisConversationStore`: an ioredis client you own, or the options of one the store opens and closes. */
export type RedisConversationStoreOptions = ({ readonly client: Redis; readonly connection?: never } | { readonly connection: RedisOptions; readonly client?: never }) & {
  /** Prefix of every key the store writes (default `toolwright:conv:`). */
  readonly keyPrefix?: string;
  /** Bounds on appends (see ConversationLimits). */
  readonly limits?: ConversationLimits;
};

type Reply = (string | null | Reply)[];

const threadCorrupt = "its version, message count, timestamps, title or owner are not the values the store writes";

/**
 * A conversation store on Redis through ioredis, for apps already on `toolwright/bullmq`. Each call
 * is one Lua script, so an append (idempotency check, version check, messages, counters, state, run
 * record, list indexes) is atomic: another client sees all of it or none. Standalone Redis only
 * (the indexes span threads, so a cluster would refuse the scripts). With `{ client }` the client
 * stays yours: `close()` leaves it open.
 */
export function redisConversationStore(options: RedisConversationStoreOptions): ConversationStore {
  const limits = resolveLimits(options.limits);
  const prefix = options.keyPrefix ?? "toolwright:conv:";
  const owned = options.client === undefined;
  let client: Redis;
  if (options.client !== undefined) client = options.client;
  else {
    // ioredis is an optional peer dependency: loaded only when the store opens its own client.
    const { Redis: Client } = require("ioredis") as typeof import("ioredis");
    client = new Client(options.connection);
    // Connection errors reach the commands that fail; without a listener ioredis prints each one.
    client.on("error", () => undefined);
  }
  const allKey = redisThreadIndexKey(prefix);
  const keysOf = (threadId: string) => ({ thread: redisConversationKey(prefix, "thread", threadId), messages: redisConversationKey(prefix, "messages", threadId), runs: redisConversationKey(prefix, "runs", threadId) });
  const run = async (s: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> => {
    try {
      return await client.evalsha(s.sha, s.keys, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(s.source, s.keys, ...keys, ...args);
    }
  };

  return {
    async load(threadId) {
      checkId(threadId, "threadId", threadId);
      const k = keysOf(threadId);
      const [fields, rows] = (await run(loadScript, [k.thread, k.messages], [])) as [(string | null)[], string[]];
      if (fields[0] === null) return { threadId, version: 0, messages: [], metadata: null, state: {} };
      const summary = summaryOf(threadId, fields);
      if (summary.messageCount !== rows.length) throw new ConversationCorruptError(threadId, "thread", threadCorrupt);
      const state = stateOf(threadId, fields[6] ?? null);
      return { threadId, version: summary.version, messages: rows.map((row, i) => messageOf(threadId, i + 1, row)), metadata: summary.metadata, state };
    },
    async append(threadId, runId, messages, appendOptions) {
      const { rows, digest, expected, state } = checkAppend(threadId, runId, messages, appendOptions, limits);
      const k = keysOf(threadId);
      const reply = (await run(appendScript, [k.thread, k.messages, k.runs, allKey], [threadId, runId, digest, expected === undefined ? "" : String(expected), Date.now(), state === undefined ? "0" : "1", state ?? "", ...rows])) as string[];
      switch (reply[0]) {
        case "appended":
        case "retry":
          return { version: Number(reply[2]), appended: reply[0] === "appended", firstSeq: Number(reply[1]) };
        case "runconflict":
          throw new ConversationRunConflictError(threadId, runId);
        case "conflict":
          throw new ConversationConflictError(threadId, expected ?? 0, Number(reply[1]));
        default:
          throw new ConversationCorruptError(threadId, "thread", reply[1] === "run" ? `the record of run '${runId}' is not the value the store writes` : threadCorrupt);
      }
    },
    async listThreads(listOptions) {
      const { limit, owner, cursor } = checkList(listOptions);
      // A cursor before time 0 has nothing after it (every stored updatedAt is at least 0).
      if (cursor !== undefined && cursor.updatedAt < 0) return { threads: [] };
      const index = owner === undefined ? allKey : redisConversationKey(prefix, "owner", owner);
      const start = cursor === undefined ? "-" : `(${redisIndexMember(redisConversationKey(prefix, "thread", cursor.threadId), cursor.updatedAt)}`;
      const rows = (await run(listScript, [index], [start, limit + 1])) as (string | null)[][];
      const threads = rows.slice(0, limit).map((row) => {
        const threadId = row[1];
        if (typeof threadId !== "string") throw new ConversationCorruptError("", "thread", `the thread index lists ${JSON.stringify(row[0])}, whose thread is gone`);
        return summaryOf(threadId, row.slice(2));
      });
      const last = threads[threads.length - 1];
      return rows.length > limit && last !== undefined ? { threads, nextCursor: encodeCursor({ updatedAt: last.metadata.updatedAt.getTime(), threadId: last.threadId }) } : { threads };
    },
    async deleteThread(threadId) {
      checkId(threadId, "threadId", threadId);
      const k = keysOf(threadId);
      return (await run(deleteScript, [k.thread, k.messages, k.runs, allKey], [])) === 1;
    },
    async getMetadata(threadId) {
      checkId(threadId, "threadId", threadId);
      const fields = await client.hmget(keysOf(threadId).thread, "version", "count", "created", "updated", "title", "owner");
      return fields[0] === null ? null : summaryOf(threadId, fields).metadata;
    },
    async setMetadata(threadId, update) {
      checkId(threadId, "threadId", threadId);
      checkMetadata(threadId, update);
      const op = (value: string | null | undefined) => (value === undefined ? "keep" : value === null ? "clear" : "set");
      const ownerKey = typeof update.owner === "string" ? redisConversationKey(prefix, "owner", update.owner) : "";
      const reply = (await run(setMetadataScript, [keysOf(threadId).thread, allKey, ownerKey], [threadId, Date.now(), op(update.title), update.title ?? "", op(update.owner), update.owner ?? ""])) as (string | null)[];
      if (reply[0] === "corrupt") throw new ConversationCorruptError(threadId, "thread", threadCorrupt);
      return summaryOf(threadId, reply).metadata;
    },
    async close() {
      if (owned && client.status !== "end") await client.quit().catch(() => client.disconnect());
    },
  };
}

// fields: version, count, created, updated, title, owner (as the scripts return them).
function summaryOf(threadId: string, fields: readonly (string | null | Reply)[]): ConversationSummary {
  const [version, messageCount, createdAt, updatedAt] = fields.slice(0, 4).map((f) => (typeof f === "string" && /^\d{1,15}$/.test(f) ? Number(f) : Number.NaN));
  const title = fields[4] ?? null;
  const owner = fields[5] ?? null;
  if (![version, messageCount, createdAt, updatedAt].every((n) => n !== undefined && Number.isSafeInteger(n)) || (title !== null && typeof title !== "string") || (owner !== null && typeof owner !== "string")) {
    throw new ConversationCorruptError(threadId, "thread", threadCorrupt);
  }
  const metadata: ConversationMetadata = { title, owner, createdAt: new Date(createdAt!), updatedAt: new Date(updatedAt!) };
  return { threadId, version: version!, messageCount: messageCount!, metadata };
}

function stateOf(threadId: string, text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new ConversationCorruptError(threadId, "thread", "its state is not a JSON object");
}

function messageOf(threadId: string, seq: number, text: string): ChatMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConversationCorruptError(threadId, seq, "it is not JSON", { cause: error });
  }
  try {
    return ChatMessage.fromJSON(value);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split(". Pass what")[0]?.replace(/\.$/, "") ?? "";
    throw new ConversationCorruptError(threadId, seq, reason, { cause: error });
  }
}
