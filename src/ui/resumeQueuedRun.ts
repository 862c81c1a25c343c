import type { RunQueue } from "../bullmq/runQueue";
import { RunNotFoundError, RunStateError } from "../bullmq/errors";
import { DecisionError } from "../errors";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import { UIRequestError } from "./uiRequestError";

/**
 * Resumes a paused `toolwright/bullmq` run with the user's decisions, on whichever worker takes it:
 * `queue.resume` made a chat request. Exactly once across replicas: the resume that loses a race
 * (another tab, a double click) or finds no paused run gets a 409 UIRequestError, decisions that do
 * not fit the pending calls a 422; either way the run is unchanged. Follow the run with
 * `queue.events(runId, { after })` to stream the resumed leg.
 */
export async function resumeQueuedRun(queue: RunQueue, runId: string, decisions: Readonly<Record<string, ConfirmationDecision>>): Promise<void> {
  try {
    await queue.resume(runId, decisions);
  } catch (error) {
    if (error instanceof RunStateError || error instanceof RunNotFoundError) throw new UIRequestError(409, `Run '${runId}' approval refused: ${error.message}`, { cause: error });
    if (error instanceof DecisionError) throw new UIRequestError(422, `Run '${runId}' approval refused: ${error.message}`, { cause: error });
    throw error;
  }
}
