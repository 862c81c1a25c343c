import { ChatMessage } from "../chat/chatMessage";
import { appendMessages } from "../state/state";
import { isThenable } from "../util/isThenable";
import type { RunStop } from "./middleware";
import { noDecisions, noPending, type LoopOutcome, type RunContext } from "./runContext";
import { snapshotAt } from "./runSnapshot";

/** Adds the step's replies to the conversation and counts the model call. */
export function recordReplies(run: RunContext, replies: readonly ChatMessage[]): void {
  run.cursor.modelVisits += 1;
  run.cursor.stepCount += 1;
  appendMessages(run.state, replies);
}

/** True when a reply calls a tool. */
export function callsTools(replies: readonly ChatMessage[]): boolean {
  for (const reply of replies) for (const part of reply.content) if (part.type === "toolCall") return true;
  return false;
}

/**
 * Sends a rejection of the replies back to the model: as the answer to each of their tool calls
 * (which do not run), or, for a text reply, as a user message. The model is called again.
 */
export function answerRejection(run: RunContext, replies: readonly ChatMessage[], reject: { readonly text: string; readonly by: string }): void {
  const meta = { rejectedBy: reject.by };
  const answers: ChatMessage[] = [];
  for (const reply of replies) for (const part of reply.content) if (part.type === "toolCall") answers.push(ChatMessage.fromTool(reject.text, part.toolCall, { error: true, meta }));
  // Counted like any call the model asked for whose answer is an error (RunUsage).
  if (answers.length > 0) run.usage.addToolCalls(answers.map((answer) => answer.toolCallResult!.origin.toolName), answers.length);
  appendMessages(run.state, answers.length > 0 ? answers : [ChatMessage.fromUser(reject.text, { meta })]);
}

/** The replies call tools: the run goes on with their tool step. */
export function enterToolStep(run: RunContext, replies: number): void {
  run.cursor.next = "tool";
  run.cursor.toolStep = { replies, decisions: noDecisions, pending: noPending };
}

/** The tool step is over: the run goes on with a model call. */
export function leaveToolStep(run: RunContext): void {
  run.cursor.next = "chat_generator";
  run.cursor.toolStep = undefined;
}

/** Tells the checkpoint features (run({ onCheckpoint })) that the run reached a new position. */
export async function reachCheckpoint(run: RunContext): Promise<void> {
  for (const feature of run.features.checkpoint) {
    const saved = feature.checkpoint!(run);
    if (isThenable(saved)) await saved;
  }
}

/** Ends the run because a middleware stopped it: `exitReason: "stopped"`, with a snapshot that continues from here. */
export function stopRun(run: RunContext, stopped: RunStop, toolStep: Parameters<typeof snapshotAt>[1] = null): LoopOutcome {
  return { exitReason: stopped.exitReason, stepCount: run.cursor.stepCount, stopped, snapshot: snapshotAt(run, toolStep) };
}
