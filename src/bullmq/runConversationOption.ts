/** `agent.run`'s `conversation` option without the store, which is the RunWorker's (`conversationStore`). */
export interface RunConversationOption {
  /** The thread's id (1 to 256 characters). */
  readonly threadId: string;
  /** State keys saved with the thread when the run ends and given to the next run in it. */
  readonly persistState?: readonly string[];
  /** When another run appended after this one loaded the thread: `"error"` (default) fails the run, `"append"` appends after it. */
  readonly onConflict?: "error" | "append";
}
