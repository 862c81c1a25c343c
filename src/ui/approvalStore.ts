import type { AgentSnapshot } from "../agent/snapshot";

/**
 * Where a chat's paused run waits for its approval, by chat id. A `Map<string, AgentSnapshot>` is
 * one (for one process); a shared store (Redis, a database) must make `delete` answer true to one
 * caller only — that answer is what makes a resume happen exactly once. Give the Agent a
 * `snapshotKey` when the store is outside the process: a snapshot changed there is then refused.
 */
export interface ApprovalStore {
  /** The snapshot saved for the chat's paused run, if any. */
  get(chatId: string): AgentSnapshot | undefined | Promise<AgentSnapshot | undefined>;
  /** Saves the snapshot of the chat's paused run. */
  set(chatId: string, snapshot: AgentSnapshot): unknown;
  /** Removes the chat's snapshot; true only for the caller that removed it. */
  delete(chatId: string): boolean | Promise<boolean>;
}
