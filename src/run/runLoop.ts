import { answerRejection, callsTools, enterToolStep, reachCheckpoint, recordReplies, stopRun } from "./modelStep";
import { callModel } from "./callModel";
import { prepareCalls } from "./prepareCalls";
import { runCalls } from "./runCalls";
import type { LoopOutcome, RunContext } from "./runContext";
import { checkTextExit } from "./textExit";
import { isThenable } from "../util/isThenable";

/**
 * The agent loop: steps until one ends the run, or the run has made `maxAgentSteps` model calls
 * (a tool step still runs after the last one).
 */
export async function runLoop(run: RunContext): Promise<LoopOutcome> {
  while (run.cursor.next === "tool" || run.cursor.stepCount < run.maxAgentSteps) {
    const ended = await runStep(run);
    if (ended) return ended;
  }
  return { exitReason: "max_agent_steps", stepCount: run.cursor.stepCount };
}

/**
 * One step: call the model, record its replies, end on a text answer; else prepare the calls
 * (decide, pause), run them and record their results, end on an exit-condition tool. A resumed run
 * may start at the tool half. Returns how the run ended, or undefined to go on.
 */
export async function runStep(run: RunContext): Promise<LoopOutcome | undefined> {
  if (run.cursor.next === "chat_generator") {
    const answer = await callModel(run);
    if (!answer.replies) return stopRun(run, answer.stop);
    const { replies } = answer;
    recordReplies(run, replies);
    if (answer.reject) {
      answerRejection(run, replies, answer.reject);
      if (run.features.checkpoint.length > 0) await reachCheckpoint(run);
      return undefined;
    }
    if (!callsTools(replies)) return answer.stop ? stopRun(run, answer.stop) : checkTextExit(run, replies);
    enterToolStep(run, replies.length);
    if (answer.stop) return stopRun(run, answer.stop);
    if (run.features.checkpoint.length > 0) await reachCheckpoint(run);
  }
  let prepared = prepareCalls(run);
  if (isThenable(prepared)) prepared = await prepared;
  if ("exitReason" in prepared) return prepared;
  return runCalls(run, prepared);
}
