import type { ChatMessage } from "../chat/chatMessage";
import { ConversationError } from "../conversations/errors";

/**
 * A run in a thread ended but its messages could not be appended: another run appended first
 * (`conflict`), the run id already appended other messages, a bound was broken, or the store
 * failed (`cause`). Nothing was appended; the run's result and the messages it would have
 * appended are on the error, so nothing is lost.
 */
export class ConversationAppendError extends ConversationError {
  /** The run id the append was keyed by. */
  readonly runId: string;
  /** True when another run appended to the thread after this run loaded it (`onConflict: "error"`). */
  readonly conflict: boolean;
  /** The run's result, as `agent.run` would have resolved with it. */
  readonly result: unknown;
  /** The messages the run would have appended. */
  readonly messages: readonly ChatMessage[];

  constructor(threadId: string, runId: string, details: { readonly result: unknown; readonly messages: readonly ChatMessage[]; readonly conflict: boolean; readonly exitReason: string; readonly cause: unknown }) {
    const cause = details.cause instanceof Error ? details.cause.message : String(details.cause);
    const reason = /[.!?]$/.test(cause) ? cause : `${cause}.`;
    const fix = details.conflict
      ? `Run again on the thread as it is now, or pass conversation.onConflict: "append" to append after the other run.`
      : (details.cause as Error | undefined)?.name === "ConversationRunConflictError"
        ? `The thread already holds this run's first answer (a step ran again and the model answered differently): load the thread to show what it keeps.`
        : `Append them with store.append('${threadId}', '${runId}', error.messages) once the cause is fixed.`;
    super(threadId, `Conversation '${threadId}': run '${runId}' ended (${details.exitReason}) but its ${details.messages.length} messages were not appended: ${reason} The result and the messages are on this error (error.result, error.messages). ${fix}`, { cause: details.cause });
    this.runId = runId;
    this.conflict = details.conflict;
    this.result = details.result;
    this.messages = details.messages;
  }
}
