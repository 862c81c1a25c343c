import type { ChatMessage } from "../chat/chatMessage";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import { peekStateValue } from "../state/state";
import { prepareArguments } from "../tools/prepareArguments";
import { deepFreeze } from "../util/deepFreeze";
import { isThenable } from "../util/isThenable";
import { truncateForEcho } from "../util/truncate";
import type { RunStop } from "./middleware";
import { stopRun } from "./modelStep";
import { MiddlewareError } from "./middlewareError";
import { attachSnapshot } from "../agent/snapshot";
import { snapshotAt } from "./runSnapshot";
import { type LoopOutcome, noPending, type RunContext } from "./runContext";
import type { ToolStepCalls } from "./runContext";
import { callKeys, stepCalls } from "./stepCalls";

/** A tool step ready to run: its calls, their keys, and the decisions about them. */
export interface PreparedCalls extends ToolStepCalls {
  readonly decisions: ReadonlyMap<string, ConfirmationDecision>;
}

/**
 * Prepares the step's calls: reads them from the replies, tells the features before the step (a
 * breakpoint), and asks the features before each call (middleware, confirmation strategies) about
 * the calls not decided yet. A call paused for a person ends the run with `confirmation_required`,
 * a stop with `stopped`; both carry a snapshot of the step.
 */
export function prepareCalls(run: RunContext): PreparedCalls | LoopOutcome | Promise<PreparedCalls | LoopOutcome> {
  const step = run.cursor.toolStep!;
  const calls = stepCalls(peekStateValue(run.state, "messages") as ChatMessage[], step.replies);
  const keys = callKeys(calls);
  const names = new Set<string>();
  for (const call of calls) if (run.tools.has(call.toolName)) names.add(call.toolName);
  const { features } = run;
  // Without features at this point nothing is awaited: the common path stays synchronous.
  if (features.beforeTools.length === 0 && (step.nested || features.beforeTool.length === 0)) {
    run.cursor.resuming = false;
    return { calls, keys, names, decisions: step.decisions };
  }
  return decideStep(run, { calls, keys, names, decisions: step.decisions });
}

// The features before the step, then those before each call (a step continued after a sub-run
// paused it was decided before it first ran).
async function decideStep(run: RunContext, prepared: PreparedCalls): Promise<PreparedCalls | LoopOutcome> {
  const step = run.cursor.toolStep!;
  for (const feature of run.features.beforeTools) {
    const done = feature.beforeTools!(run, prepared);
    if (isThenable(done)) await done;
  }
  run.cursor.resuming = false;
  if (step.nested || run.features.beforeTool.length === 0) return prepared;
  let decided: Awaited<ReturnType<typeof decideCalls>>;
  try {
    decided = await decideCalls(run, prepared, step.decisions);
  } catch (error) {
    // No call of the step has run: a middleware's failure can be retried from here.
    if (error instanceof MiddlewareError) attachSnapshot(error, () => snapshotAt(run));
    throw error;
  }
  if (decided.stop) return stopRun(run, decided.stop, { replies: step.replies, decisions: decided.decisions, pending: noPending });
  if (decided.pending.length > 0) {
    const toolStep = { replies: step.replies, decisions: decided.decisions, pending: decided.pending };
    return { exitReason: "confirmation_required", stepCount: run.cursor.stepCount, pending: decided.pending, snapshot: snapshotAt(run, toolStep) };
  }
  if (run.observer && decided.decisions.size > 0) observeDecisions(run, prepared, decided.decisions);
  return { ...prepared, decisions: decided.decisions };
}

/**
 * Asks the features before each call, in call order, about the calls with no decision yet. They see
 * only calls to known tools with valid arguments (the others fail anyway), frozen. The first that
 * confirms, rejects or pauses decides the call; a modify changes what later features see and what
 * runs (a pause after it drops it: the person decides on the model's call); a stop ends the step
 * before any call runs.
 */
async function decideCalls(
  run: RunContext,
  prepared: ToolStepCalls,
  known: ReadonlyMap<string, ConfirmationDecision>,
): Promise<{ decisions: Map<string, ConfirmationDecision>; pending: PendingConfirmation[]; stop?: RunStop }> {
  const { calls, keys } = prepared;
  const decisions = new Map(known);
  const pending: PendingConfirmation[] = [];
  const { abort } = run;
  for (const [index, toolCall] of calls.entries()) {
    const key = keys[index]!;
    if (decisions.has(key)) continue;
    const tool = run.tools.get(toolCall.toolName);
    if (!tool) continue;
    const prepared = prepareArguments(tool, toolCall);
    if (!prepared.ok) continue;
    const modelArgs: Readonly<Record<string, unknown>> = deepFreeze(prepared.args);
    let args = modelArgs;
    for (const feature of run.features.beforeTool) {
      let verdict = feature.beforeTool!(run, { toolCall, key, index, tool, arguments: args });
      if (isThenable(verdict)) verdict = await abort.race(Promise.resolve(verdict), () => abort.abortError());
      if (!verdict) continue;
      if ("stop" in verdict) return { decisions, pending, stop: verdict.stop };
      if (verdict.action === "pause") {
        // A person decides on the model's own call (an earlier modify is dropped; the person may modify it).
        decisions.delete(key);
        pending.push(Object.freeze({ toolCallId: key, toolName: tool.name, arguments: modelArgs }));
        break;
      }
      if (verdict.action === "modify") {
        decisions.set(key, verdict);
        args = deepFreeze({ ...verdict.arguments });
        continue;
      }
      // A confirm after a modify runs the modified call.
      if (verdict.action === "reject" || !decisions.has(key)) decisions.set(key, verdict);
      break;
    }
  }
  return { decisions, pending };
}

// One span event per decided call of a step, as its calls run (a feature's decision, or one given on resume).
function observeDecisions(run: RunContext, prepared: ToolStepCalls, decisions: ReadonlyMap<string, ConfirmationDecision>): void {
  const { calls, keys } = prepared;
  for (let i = 0; i < calls.length; i++) {
    const decision = decisions.get(keys[i]!);
    if (decision) run.observer!.event("toolwright.confirmation", { "gen_ai.tool.name": truncateForEcho(calls[i]!.toolName), "gen_ai.tool.call.id": truncateForEcho(keys[i]!), "toolwright.confirmation.action": decision.action });
  }
}
