import type { Agent } from "../agent/agent";
import type { AgentStreamEvent } from "../agent/agentStream";
import type { AgentResult, AgentRunInput } from "../agent/agentTypes";
import type { OutputSchema } from "../agent/finalOutput";
import { DecisionError } from "../errors";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import type { StateSchema } from "../state/stateSchema";
import { truncateForEcho } from "../util/truncate";
import type { ApprovalStore } from "./approvalStore";
import { recordPauses } from "./recordPauses";
import { UIRequestError } from "./uiRequestError";

/** What `resumeFromApproval` resumes: the chat, the user's decisions (`fromUIMessages(...).decisions`), and the request's signal. */
export interface ApprovalRequest {
  readonly chatId: string;
  readonly decisions: Readonly<Record<string, ConfirmationDecision>>;
  /** Aborts the resumed run (the client went away). */
  readonly signal?: AbortSignal;
}

/**
 * Resumes a chat's paused run in this process with the user's decisions, exactly once: the first
 * request takes the snapshot from the store, a second (a double click, another tab) gets a 409
 * UIRequestError. Decisions that do not fit the pending calls get a 422 and leave the run paused.
 * Resolves with the resumed run's `agent.stream` events (a next pause is saved in the store again),
 * for `toUIMessageStream`. A snapshot changed in the store fails with the Agent's SnapshotError when
 * the Agent has a `snapshotKey`.
 *
 * @example
 * const { decisions } = fromUIMessages(body.messages);
 * return createUIMessageStreamResponse(await resumeFromApproval(agent, snapshots, { chatId: body.id, decisions }));
 */
export async function resumeFromApproval<S extends StateSchema, E extends string, O extends OutputSchema | undefined>(
  agent: Agent<S, E, O>,
  store: ApprovalStore,
  request: ApprovalRequest,
): Promise<AsyncIterable<AgentStreamEvent<AgentResult<S, E, O>>>> {
  const { chatId, decisions, signal } = request;
  const snapshot = await store.get(chatId);
  if (snapshot === undefined || !(await store.delete(chatId))) {
    throw new UIRequestError(409, `Chat '${truncateForEcho(chatId)}' has no run waiting for approval; another request resumed it already, or it never paused.`);
  }
  const input = { snapshot, decisions, ...(signal && { signal }) } as AgentRunInput<S, O>;
  const iterator = recordPauses(agent.stream<O>(input), store, chatId)[Symbol.asyncIterator]();
  let first: IteratorResult<AgentStreamEvent<AgentResult<S, E, O>>>;
  try {
    // The agent checks the decisions before its first event: a refused one puts the pause back.
    first = await iterator.next();
  } catch (error) {
    if (!(error instanceof DecisionError)) throw error;
    await store.set(chatId, snapshot);
    throw new UIRequestError(422, `Chat '${truncateForEcho(chatId)}' approval refused: ${error.message}`, { cause: error });
  }
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
}
