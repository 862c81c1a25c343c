import type { ChatMessage } from "../chat/chatMessage";
import { checkAppend, checkId, checkList, checkMetadata, type ConversationLimits, encodeCursor, resolveLimits } from "./conversationLimits";
import type { ConversationMetadata, ConversationStore, ConversationSummary } from "./conversationStore";
import { ConversationConflictError, ConversationRunConflictError } from "./errors";

interface MemoryThread {
  version: number;
  title: string | null;
  owner: string | null;
  createdAt: number;
  updatedAt: number;
  readonly messages: ChatMessage[];
  /** The stored state as JSON text (a copy, so a caller's later change to its object does not reach it). */
  state: string;
  readonly runs: Map<string, { digest: string; firstSeq: number; version: number }>;
}

/** Options of `memoryConversationStore`. */
export interface MemoryConversationStoreOptions {
  /** Bounds on appends (see ConversationLimits). */
  readonly limits?: ConversationLimits;
}

/**
 * A conversation store in this process's memory, for tests and single-process demos: lost on exit.
 * Each call runs to its end before another starts (no await inside), so appends never interleave.
 */
export function memoryConversationStore(options: MemoryConversationStoreOptions = {}): ConversationStore {
  const limits = resolveLimits(options.limits);
  const threads = new Map<string, MemoryThread>();
  const metadataOf = (t: MemoryThread): ConversationMetadata => ({ title: t.title, owner: t.owner, createdAt: new Date(t.createdAt), updatedAt: new Date(t.updatedAt) });
  const create = (threadId: string, now: number): MemoryThread => {
    const thread: MemoryThread = { version: 0, title: null, owner: null, createdAt: now, updatedAt: now, messages: [], state: "{}", runs: new Map() };
    threads.set(threadId, thread);
    return thread;
  };
  return {
    async load(threadId) {
      checkId(threadId, "threadId", threadId);
      const thread = threads.get(threadId);
      if (thread === undefined) return { threadId, version: 0, messages: [], metadata: null, state: {} };
      return { threadId, version: thread.version, messages: [...thread.messages], metadata: metadataOf(thread), state: JSON.parse(thread.state) as Record<string, unknown> };
    },
    async append(threadId, runId, messages, appendOptions) {
      const { digest, expected, state } = checkAppend(threadId, runId, messages, appendOptions, limits);
      const existing = threads.get(threadId);
      const run = existing?.runs.get(runId);
      if (run !== undefined) {
        if (run.digest !== digest) throw new ConversationRunConflictError(threadId, runId);
        return { version: run.version, appended: false, firstSeq: run.firstSeq };
      }
      const actual = existing?.version ?? 0;
      if (expected !== undefined && expected !== actual) throw new ConversationConflictError(threadId, expected, actual);
      const now = Date.now();
      const thread = existing ?? create(threadId, now);
      const firstSeq = thread.messages.length + 1;
      thread.messages.push(...messages);
      thread.version += 1;
      if (state !== undefined) thread.state = state;
      thread.updatedAt = Math.max(now, thread.updatedAt);
      thread.runs.set(runId, { digest, firstSeq, version: thread.version });
      return { version: thread.version, appended: true, firstSeq };
    },
    async listThreads(listOptions) {
      const { limit, owner, cursor } = checkList(listOptions);
      const all: ConversationSummary[] = [];
      for (const [threadId, t] of threads) {
        if (owner !== undefined && t.owner !== owner) continue;
        if (cursor !== undefined && !(t.updatedAt < cursor.updatedAt || (t.updatedAt === cursor.updatedAt && threadId > cursor.threadId))) continue;
        all.push({ threadId, version: t.version, messageCount: t.messages.length, metadata: metadataOf(t) });
      }
      all.sort((a, b) => b.metadata.updatedAt.getTime() - a.metadata.updatedAt.getTime() || (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0));
      const page = all.slice(0, limit);
      const last = page[page.length - 1];
      return all.length > limit && last !== undefined ? { threads: page, nextCursor: encodeCursor({ updatedAt: last.metadata.updatedAt.getTime(), threadId: last.threadId }) } : { threads: page };
    },
    async deleteThread(threadId) {
      checkId(threadId, "threadId", threadId);
      return threads.delete(threadId);
    },
    async getMetadata(threadId) {
      checkId(threadId, "threadId", threadId);
      const thread = threads.get(threadId);
      return thread === undefined ? null : metadataOf(thread);
    },
    async setMetadata(threadId, update) {
      checkId(threadId, "threadId", threadId);
      checkMetadata(threadId, update);
      const now = Date.now();
      const thread = threads.get(threadId) ?? create(threadId, now);
      if (update.title !== undefined) thread.title = update.title;
      if (update.owner !== undefined) thread.owner = update.owner;
      thread.updatedAt = Math.max(now, thread.updatedAt);
      return metadataOf(thread);
    },
    async close() {},
  };
}
