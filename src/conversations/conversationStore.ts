import type { ChatMessage } from "../chat/chatMessage";

/** A thread's metadata: who owns it, its title and when it was created and last changed. */
export interface ConversationMetadata {
  /** The title shown in a thread list, or `null`. */
  readonly title: string | null;
  /** The owner (a user id), or `null`: `listThreads({ owner })` filters on it. */
  readonly owner: string | null;
  /** When the thread was created (first append or first metadata set). */
  readonly createdAt: Date;
  /** When the thread last changed (an append or a metadata set). */
  readonly updatedAt: Date;
}

/** A thread as `load` returns it; a thread never written is version 0 with no messages and `metadata: null`. */
export interface ConversationThread {
  /** The thread's id. */
  readonly threadId: string;
  /** How many appends the thread has had: pass it as `expectedVersion` to append only if nothing else did. */
  readonly version: number;
  /** The messages in append order. */
  readonly messages: readonly ChatMessage[];
  /** The metadata, or `null` for a thread never written. */
  readonly metadata: ConversationMetadata | null;
  /** The state the last append that carried `state` stored (e.g. a conversation summary); `{}` when none did. */
  readonly state: Readonly<Record<string, unknown>>;
}

/** A thread in a `listThreads` page. */
export interface ConversationSummary {
  /** The thread's id. */
  readonly threadId: string;
  /** Its version (appends so far). */
  readonly version: number;
  /** How many messages it holds. */
  readonly messageCount: number;
  /** Its metadata. */
  readonly metadata: ConversationMetadata;
}

/** What `append` did. */
export interface ConversationAppendResult {
  /** The thread's version after this run's append (for a retried run: after its first append). */
  readonly version: number;
  /** `false` when the run had already appended these messages and nothing was written. */
  readonly appended: boolean;
  /** The seq (1-based position in the thread) of the run's first message. */
  readonly firstSeq: number;
}

/** Options of `append`. */
export interface ConversationAppendOptions {
  /** Append only if the thread is at this version (0 for a new thread); else `ConversationConflictError`. */
  readonly expectedVersion?: number;
  /**
   * A JSON object that replaces the thread's stored state in the same transaction (the run's
   * persisted state keys, such as `summarize`'s summary); left out, the stored state is kept. A
   * retried append (same run id and messages) writes nothing, its state included.
   */
  readonly state?: Readonly<Record<string, unknown>>;
}

/** A filter and page of `listThreads`. */
export interface ConversationListOptions {
  /** Only this owner's threads. */
  readonly owner?: string;
  /** Threads per page, 1 to 1,000 (default 50). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/** A page of threads, most recently updated first (ties by thread id). */
export interface ConversationPage {
  /** The threads of the page. */
  readonly threads: readonly ConversationSummary[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  readonly nextCursor?: string;
}

/** The metadata fields `setMetadata` writes: a field left out is kept, `null` clears it. */
export interface ConversationMetadataUpdate {
  /** The new title, or `null` to clear it. */
  readonly title?: string | null;
  /** The new owner, or `null` to clear it. */
  readonly owner?: string | null;
}

/**
 * Where conversations persist: each thread's messages in order, appended once per run id, with a
 * version for optimistic concurrency and metadata for thread lists. Implementations:
 * `memoryConversationStore`, `pgliteConversationStore`, `postgresConversationStore`, `redisConversationStore`.
 */
export interface ConversationStore {
  /** The thread's messages, version and metadata; a thread never written is version 0, no messages. */
  load(threadId: string): Promise<ConversationThread>;
  /**
   * Appends a run's new messages in one transaction. Idempotent by `runId`: the same run with the
   * same messages again is a no-op (`appended: false`); with other messages it is a
   * `ConversationRunConflictError`. With `expectedVersion`, a thread at another version is a
   * `ConversationConflictError`; without it, concurrent appends are applied one after the other.
   */
  append(threadId: string, runId: string, messages: readonly ChatMessage[], options?: ConversationAppendOptions): Promise<ConversationAppendResult>;
  /** A page of threads, filtered by owner. */
  listThreads(options?: ConversationListOptions): Promise<ConversationPage>;
  /** Deletes the thread, its messages and its runs; `false` when there was no such thread. */
  deleteThread(threadId: string): Promise<boolean>;
  /** The thread's metadata, or `null` for a thread never written. */
  getMetadata(threadId: string): Promise<ConversationMetadata | null>;
  /** Writes metadata fields (creating the thread when new) and returns the metadata now stored. */
  setMetadata(threadId: string, update: ConversationMetadataUpdate): Promise<ConversationMetadata>;
  /** Releases what the store opened itself (an embedded PGlite it created); a pool or db you passed stays open. */
  close(): Promise<void>;
}
