// A run in a persisted thread (`agent.run({ conversation: { store, threadId } })`): load the
// thread, run on its history, append the run's new messages once, keyed by the run id. It wraps
// the run from outside; the loop knows nothing of threads, and the binding to the thread travels
// in the run's snapshots (sealed with them), so a paused or stopped run appends when it ends.
import type { ChatMessage } from "../chat/chatMessage";
import { ConversationConflictError } from "../conversations/errors";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import type { AgentRunOptions, ConversationRunOption } from "./agentTypes";
import { ConversationAppendError } from "./conversationAppendError";
import { parseConversation, type AgentSnapshot, type SnapshotConversation } from "./snapshot";

/** A run result as the thread run reads it. */
interface ThreadResult {
  readonly messages: readonly ChatMessage[];
  readonly exitReason: string;
  readonly snapshot?: AgentSnapshot;
  readonly [key: string]: unknown;
}

/** What the Agent lends the thread run: its run (given the binding for a fresh run's snapshots), its sealing, its state keys. */
export interface ThreadRunAccess<R extends ThreadResult> {
  run(input: Record<string, unknown>, binding: SnapshotConversation | undefined): Promise<R>;
  seal(snapshot: AgentSnapshot): AgentSnapshot;
  readonly stateKeys: ReadonlySet<string>;
}

const optionKeys = ["store", "threadId", "persistState", "onConflict"];
const notSystem = (message: ChatMessage) => message.role !== "system";

/** Runs `input` in its `conversation` thread: history loaded before, new messages appended once after. */
export async function runInThread<R extends ThreadResult>(input: AgentRunOptions & Record<string, unknown>, access: ThreadRunAccess<R>): Promise<R> {
  const option = checkConversation(input.conversation, access.stateKeys);
  const { conversation: _, ...rest } = input;
  const { store, threadId } = option;
  let binding: SnapshotConversation;
  let result: R;
  if (input.snapshot !== undefined) {
    const given = isPlainObject(input.snapshot) ? (input.snapshot as { conversation?: unknown }).conversation : undefined;
    if (given === undefined) {
      throw new ConfigurationError("Agent.run", `Agent.run was given conversation (thread '${threadId}') and a snapshot of a run that was not in a thread; resume it without conversation, or start a new run in the thread.`);
    }
    binding = parseConversation(given);
    if (binding.threadId !== threadId) {
      throw new ConfigurationError("Agent.run", `Agent.run was given conversation.threadId '${threadId}' and a snapshot of a run in thread '${binding.threadId}'; resume a run in the thread it started in.`);
    }
    if (input.runId !== undefined && input.runId !== binding.runId) {
      throw new ConfigurationError("Agent.run", `Agent.run was given runId '${input.runId}' and a snapshot of run '${binding.runId}' in thread '${threadId}'; a resumed run keeps its id, so leave runId out.`);
    }
    // The run verifies the snapshot (and so the binding, when the Agent signs) before anything is appended.
    result = await access.run({ ...rest, runId: binding.runId }, undefined);
  } else {
    const thread = await store.load(threadId);
    const runId = input.runId ?? (require("node:crypto") as typeof import("node:crypto")).randomUUID();
    binding = { threadId, runId, version: thread.version, from: thread.messages.filter(notSystem).length };
    const saved: Record<string, unknown> = {};
    for (const key of option.persistState) if (Object.hasOwn(thread.state, key) && input[key] === undefined) saved[key] = thread.state[key];
    result = await access.run({ ...rest, ...saved, runId, messages: [...thread.messages, ...(input.messages ?? [])] }, binding);
  }
  // A paused run appends nothing yet: its calls wait for their results, and the thread stays as it was.
  if (result.exitReason === "confirmation_required") return { ...result, conversation: { threadId, version: binding.version, appended: 0 } };
  return appendRun(result, binding, option, access);
}

async function appendRun<R extends ThreadResult>(result: R, binding: SnapshotConversation, option: Required<ConversationRunOption>, access: ThreadRunAccess<R>): Promise<R> {
  const { store, threadId } = option;
  const already = binding.appended ?? 0;
  const messages = result.messages.filter(notSystem).slice(binding.from + already);
  if (messages.length === 0) return { ...result, conversation: { threadId, version: binding.version, appended: 0 } };
  // A stopped run that continues appends what it adds under its own key: the first part is already in.
  const key = already === 0 ? binding.runId : `${binding.runId}+${already}`;
  const state: Record<string, unknown> = {};
  for (const name of option.persistState) if (result[name] !== undefined) state[name] = result[name];
  let written: { version: number; appended: boolean };
  try {
    written = await store.append(threadId, key, messages, { ...(option.onConflict === "error" && { expectedVersion: binding.version }), ...(option.persistState.length > 0 && { state }) });
  } catch (error) {
    throw new ConversationAppendError(threadId, key, { result, messages, conflict: error instanceof ConversationConflictError, exitReason: result.exitReason, cause: error });
  }
  const conversation = { threadId, version: written.version, appended: written.appended ? messages.length : 0 };
  if (result.snapshot === undefined) return { ...result, conversation };
  // A stopped run's snapshot says what is in the thread now, so that continuing it appends only the rest.
  const { signature: _, ...unsigned } = result.snapshot;
  const snapshot = access.seal({ ...unsigned, conversation: { ...binding, version: written.version, appended: already + messages.length } });
  return { ...result, snapshot, conversation };
}

function checkConversation(value: unknown, stateKeys: ReadonlySet<string>): Required<ConversationRunOption> {
  const shape = "Pass conversation: { store, threadId, persistState?, onConflict? } with a store from toolwright/conversations.";
  if (!isPlainObject(value)) throw new ConfigurationError("Agent.run", `Agent.run has a conversation that is not an object, got ${describeKind(value)}. ${shape}`);
  const unknown = Object.keys(value).find((key) => !optionKeys.includes(key));
  if (unknown !== undefined) throw new ConfigurationError("Agent.run", `Agent.run has conversation.${unknown}, which is not a conversation option. ${shape}`);
  const store = value.store as ConversationRunOption["store"] | undefined;
  if (typeof store?.load !== "function" || typeof store.append !== "function") {
    throw new ConfigurationError("Agent.run", `Agent.run has a conversation.store that is not a ConversationStore (an object with load and append), got ${describeKind(store)}. ${shape}`);
  }
  if (typeof value.threadId !== "string") throw new ConfigurationError("Agent.run", `Agent.run has a conversation.threadId that is not a string, got ${describeKind(value.threadId)}. ${shape}`);
  const persistState = value.persistState ?? [];
  if (!Array.isArray(persistState) || persistState.some((key) => typeof key !== "string")) {
    throw new ConfigurationError("Agent.run", `Agent.run has a conversation.persistState that is not an array of state key names, got ${describeKind(persistState)}.`);
  }
  for (const key of persistState as string[]) {
    if (!stateKeys.has(key) || key === "messages") {
      throw new ConfigurationError("Agent.run", `Agent.run has conversation.persistState naming '${key}', which is not a state key of the Agent (besides messages, which the thread keeps); name keys of its stateSchema: ${[...stateKeys].filter((k) => k !== "messages").join(", ") || "none"}.`);
    }
  }
  const onConflict = value.onConflict ?? "error";
  if (onConflict !== "error" && onConflict !== "append") throw new ConfigurationError("Agent.run", `Agent.run has conversation.onConflict ${JSON.stringify(onConflict)}; it is "error" (the default) or "append".`);
  return { store, threadId: value.threadId, persistState: persistState as string[], onConflict };
}
