import type { UIMessage } from "ai";
import type { AgentSnapshot } from "toolwright";
import type { RunRecording } from "./runRecording";

/** What the server keeps of one chat (in memory here; a table or Redis in production). */
export interface ChatRecord {
  /** The conversation as the page shows it once no reply is streaming: what a reloaded page starts from. */
  messages: UIMessage[];
  /** The run paused on the refund, until the page approves or rejects it (once). */
  snapshot?: AgentSnapshot;
  /** The refunds issued in this chat so far: the next run starts from them. */
  refunds: { orderId: string; amount: number }[];
  /** The reply streaming now, kept until the chat's history holds it, for a reloaded page to follow. */
  run?: RunRecording<unknown>;
  /** The tool calls the streaming reply decides (a resume): the page already shows them, so only their outcome is streamed. */
  knownToolCalls?: readonly string[];
}
