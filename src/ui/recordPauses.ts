import type { AgentStreamEvent } from "../agent/agentStream";
import type { AgentSnapshot } from "../agent/snapshot";
import type { ApprovalStore } from "./approvalStore";

/**
 * Passes an `agent.stream(...)` through and, when the run pauses for confirmation, saves its
 * snapshot in the store under the chat id before the result is passed on, so that the approval the
 * user sends next (`resumeFromApproval`) finds it.
 */
export async function* recordPauses<T extends AgentStreamEvent<unknown>>(events: AsyncIterable<T>, store: ApprovalStore, chatId: string): AsyncGenerator<T, void, undefined> {
  for await (const event of events) {
    if (event.type === "result") {
      const result = (event as { result: { exitReason?: unknown; snapshot?: AgentSnapshot } }).result;
      if (result.exitReason === "confirmation_required" && result.snapshot) await store.set(chatId, result.snapshot);
    }
    yield event;
  }
}
