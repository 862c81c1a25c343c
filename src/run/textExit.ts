import { ChatMessage } from "../chat/chatMessage";
import { OutputValidationError } from "../errors";
import { appendMessages } from "../state/state";
import { attachSnapshot } from "../agent/snapshot";
import { checkAnswer, correctionText } from "../agent/finalOutput";
import type { LoopOutcome, RunContext } from "./runContext";
import { reachCheckpoint } from "./modelStep";
import { snapshotAt } from "./runSnapshot";

/**
 * A reply without tool calls: text ends the run (matching the run's outputSchema, if it has one),
 * whitespace too; a reply whose text is empty or that has no text (only reasoning), or an answer
 * that does not match (sent back with what was wrong, a bounded number of times), goes on with
 * another model call. A run without tools ends on any reply. As Haystack's `Agent._is_text_exit`.
 */
export async function checkTextExit(run: RunContext, replies: readonly ChatMessage[]): Promise<LoopOutcome | undefined> {
  const last = replies.at(-1);
  const text = last?.text;
  const { stepCount } = run.cursor;
  if (run.tools.size === 0 && !run.output) return { exitReason: "text", stepCount };
  if (!text || last!.role !== "assistant") return undefined;
  if (!run.output) return { exitReason: "text", stepCount };
  const answer = checkAnswer(run.output, text);
  if (answer.ok) return { exitReason: "text", stepCount, output: answer.value };
  appendMessages(run.state, [ChatMessage.fromUser(correctionText(answer.problems), { meta: { outputCorrection: run.cursor.corrections + 1 } })]);
  if (run.cursor.corrections++ >= run.maxOutputRetries) {
    const error = new OutputValidationError(
      `The model's final answer did not match the outputSchema after ${run.maxOutputRetries} ${run.maxOutputRetries === 1 ? "correction" : "corrections"}: ${answer.problems.join("; ")}. Raise maxOutputRetries, make the schema easier to meet (describe its fields), or resume from the error's snapshot to ask again.`,
      answer.problems,
      text.slice(0, 2000),
    );
    attachSnapshot(error, () => snapshotAt(run));
    throw error;
  }
  if (run.features.checkpoint.length > 0) await reachCheckpoint(run);
  return undefined;
}
