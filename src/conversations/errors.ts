import { ToolwrightError } from "../errors";

/** Every error of a conversation store: `threadId` names the thread the call was about. */
export class ConversationError extends ToolwrightError {
  /** The thread the failed call was about (as given, even when it broke a rule). */
  readonly threadId: string;

  constructor(threadId: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.threadId = threadId;
  }
}

/**
 * An append gave `expectedVersion` and the thread was at another version: another run appended
 * first. Nothing was appended; load the thread again and retry with its version.
 */
export class ConversationConflictError extends ConversationError {
  /** The version the append expected. */
  readonly expectedVersion: number;
  /** The version the thread was at. */
  readonly actualVersion: number;

  constructor(threadId: string, expectedVersion: number, actualVersion: number) {
    super(
      threadId,
      `Conversation '${threadId}': the append expected version ${expectedVersion} but the thread is at version ${actualVersion} (another run appended first). ` +
        `Load the thread again and retry the append with expectedVersion ${actualVersion}.`,
    );
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

/** A run id that already appended to the thread was appended again with other messages; nothing was appended. */
export class ConversationRunConflictError extends ConversationError {
  /** The run id appended twice. */
  readonly runId: string;

  constructor(threadId: string, runId: string) {
    super(
      threadId,
      `Conversation '${threadId}': run '${runId}' already appended other messages to this thread. ` +
        `A run appends once: retry with the same messages, or give the new messages a new run id.`,
    );
    this.runId = runId;
  }
}

/** A thread id, run id, metadata value or message breaks a bound of the store; nothing was written. */
export class ConversationLimitError extends ConversationError {
  /** The bound broken: `threadId`, `runId`, `title`, `owner`, `messagesPerAppend`, `messageBytes`, `messageText`, `state`, `stateBytes`, `expectedVersion`, `limit`, `cursor`. */
  readonly limit: string;

  constructor(threadId: string, limit: string, message: string) {
    super(threadId, message);
    this.limit = limit;
  }
}

/**
 * A stored row does not have the shape the store wrote (edited by hand, or by another program):
 * `row` names it. The thread cannot be loaded until the row is repaired or the thread deleted.
 */
export class ConversationCorruptError extends ConversationError {
  /** The row: the message's `seq` in the thread (1-based), or the thread row itself as `thread`. */
  readonly row: number | "thread";

  constructor(threadId: string, row: number | "thread", reason: string, options?: { cause?: unknown }) {
    const where = row === "thread" ? "the thread row" : `the stored message at seq ${row}`;
    super(threadId, `Conversation '${threadId}': ${where} is corrupted: ${reason}. Repair the row or delete the thread; the store writes only ChatMessage.toJSON() forms.`, options);
    this.row = row;
  }
}
