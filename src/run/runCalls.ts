import type { ToolCall } from "../chat/chatMessage";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import { appendMessages } from "../state/state";
import { type AfterCallChange, type EndedCall, invokeTools, type InvokeToolsOptions, type NestedStep, type ToolCallOutcome } from "../tools/invokeTools";
import type { SubRunPause } from "../tools/subRun";
import { nestedCallKey } from "./stepCalls";
import { attachSnapshot, type RunPosition } from "../agent/snapshot";
import { isThenable } from "../util/isThenable";
import { leaveToolStep, reachCheckpoint, stopRun } from "./modelStep";
import type { PreparedCalls } from "./prepareCalls";
import { type LoopOutcome, noPending, type RunContext, type RunExecutor } from "./runContext";
import { snapshotAt, snapshotNow } from "./runSnapshot";

/**
 * Runs the step's calls (the executor schedules, injects, times out and commits them in call
 * order) and records their results. An agent tool's sub-run that paused pauses the run with one
 * snapshot nesting the sub-runs'; a stop from a feature after a call ends the run once the step is
 * in; a successful call to an exit-condition tool ends it.
 */
export async function runCalls(run: RunContext, prepared: PreparedCalls): Promise<LoopOutcome | undefined> {
  const { cursor } = run;
  const step = cursor.toolStep!;
  const { calls, keys, decisions } = prepared;
  const beforeTools = run.raiseOnToolInvocationFailure ? snapshotNow(run, { ...step, decisions, pending: noPending }) : undefined;
  // A step continued after a sub-run paused it was counted when it first ran.
  if (!step.nested) {
    for (const name of prepared.names) cursor.toolVisits.set(name, (cursor.toolVisits.get(name) ?? 0) + 1);
    cursor.toolVisits.set("*", (cursor.toolVisits.get("*") ?? 0) + 1);
  }
  const executor = (run.executor ??= executorFor(run));
  executor.nested.paused.clear();
  run.cursor.stopAfterStep = undefined;
  const continued = step.done || step.resumes;
  const nested: NestedStep = continued ? { ...executor.nested, ...continuedCalls(step, calls, keys) } : executor.nested;
  const options: InvokeToolsOptions = decisions.size > 0 || continued ? { ...executor.options, nested, ...(decisions.size > 0 && { decisions: byIndex(keys, decisions) }) } : executor.options;
  let outcomes: ToolCallOutcome[];
  try {
    outcomes = await invokeTools(calls, options, { runId: run.runId, step: cursor.stepCount, keys });
  } catch (error) {
    if (beforeTools) attachSnapshot(error, beforeTools);
    throw error;
  }
  if (nested.paused.size > 0) return pauseForSubRuns(run, prepared, { outcomes, paused: nested.paused });
  let failed = 0;
  for (const outcome of outcomes) if (outcome.failed) failed++;
  run.usage.addToolCalls(outcomes.map((outcome) => outcome.toolCall.toolName), failed);
  appendMessages(run.state, outcomes.map((outcome) => outcome.message));
  leaveToolStep(run);
  const stop = run.cursor.stopAfterStep;
  if (stop) {
    run.cursor.stopAfterStep = undefined;
    return stopRun(run, stop);
  }
  const exit = exitTool(run.exitConditions, outcomes);
  if (exit !== undefined) return { exitReason: exit, stepCount: cursor.stepCount };
  if (run.features.checkpoint.length > 0) await reachCheckpoint(run);
  return undefined;
}

/**
 * The exit-condition tool that ends the run after a step: the first called (in the model's order)
 * that succeeded, unless a call of any exit-condition tool failed, which cancels the exit so that
 * the model sees the error (Haystack's `Agent._check_exit_conditions`).
 */
export function exitTool(exitConditions: ReadonlySet<string>, outcomes: readonly ToolCallOutcome[]): string | undefined {
  if (exitConditions.size === 0) return undefined;
  let first: ToolCallOutcome | undefined;
  for (const outcome of outcomes) {
    if (!exitConditions.has(outcome.toolCall.toolName)) continue;
    if (outcome.failed) return undefined;
    if (!first || outcome.index < first.index) first = outcome;
  }
  return first?.toolCall.toolName;
}

// The executor's options for the run's tool steps (one object for the run: a step adds decisions or a continuation only when it has them).
function executorFor(run: RunContext): RunExecutor {
  const nested: NestedStep = { depth: run.depth, addTokens: (usage) => run.usage.addTokens(usage), paused: new Map() };
  const options: InvokeToolsOptions = {
    tools: run.tools,
    state: run.state,
    abort: run.abort,
    redact: run.redact,
    reportFault: run.reportFault,
    concurrency: run.toolConcurrency,
    raiseOnFailure: run.raiseOnToolInvocationFailure,
    raiseHandlerFaults: true,
    timeoutMs: run.toolTimeoutMs,
    maxResultChars: run.maxToolResultChars,
    streamingCallback: run.streamingCallback,
    observer: run.observer,
    nested,
    ...(run.features.afterTool.length > 0 && { afterCall: (ended: EndedCall) => afterCall(run, ended) }),
  };
  return { options, nested };
}

// The features after each call, in order; the first stop is kept for the end of the step.
async function afterCall(run: RunContext, ended: EndedCall): Promise<AfterCallChange | undefined> {
  let change: { result?: unknown; text?: string } | undefined;
  let call = ended;
  for (const feature of run.features.afterTool) {
    let verdict = feature.afterTool!(run, call);
    if (isThenable(verdict)) verdict = await run.abort.race(Promise.resolve(verdict), () => run.abort.abortError());
    if (!verdict) continue;
    if ("stop" in verdict) {
      run.cursor.stopAfterStep ??= verdict.stop;
      break;
    }
    change = { ...change, ...verdict };
    if ("result" in verdict) call = { ...call, result: verdict.result };
  }
  return change;
}

function byIndex(keys: readonly string[], decisions: ReadonlyMap<string, ConfirmationDecision>): Map<number, ConfirmationDecision> {
  const indexed = new Map<number, ConfirmationDecision>();
  for (let i = 0; i < keys.length; i++) {
    const decision = decisions.get(keys[i]!);
    if (decision) indexed.set(i, decision);
  }
  return indexed;
}

// A step continued after an agent tool's sub-run paused it: the calls that finished, and the sub-runs to continue, by call index.
function continuedCalls(step: NonNullable<RunPosition["toolStep"]>, calls: readonly ToolCall[], keys: readonly string[]): Pick<NestedStep, "done" | "resumes"> {
  const done = new Map<number, ToolCallOutcome>();
  const resumes = new Map<number, NonNullable<NestedStep["resumes"]> extends ReadonlyMap<number, infer R> ? R : never>();
  for (let index = 0; index < keys.length; index++) {
    const finished = step.done?.get(keys[index]!);
    if (finished) done.set(index, { index, toolCall: calls[index]!, message: finished.message, failed: finished.failed });
    const resume = step.resumes?.get(keys[index]!);
    if (resume) resumes.set(index, resume);
  }
  return { done, resumes };
}

/** What a step's calls left when an agent tool's sub-run paused it. */
interface SubRunPauses {
  /** The calls that finished: kept, not run again. */
  readonly outcomes: readonly ToolCallOutcome[];
  /** The calls whose sub-run paused, by index. */
  readonly paused: ReadonlyMap<number, SubRunPause>;
}

// An agent tool's sub-run paused: the run pauses with one snapshot nesting the sub-runs'; the calls that finished are kept, not run again.
function pauseForSubRuns(run: RunContext, prepared: PreparedCalls, left: SubRunPauses): LoopOutcome {
  const { keys, decisions } = prepared;
  const { outcomes, paused } = left;
  const step = run.cursor.toolStep!;
  const done = new Map(outcomes.map((outcome) => [keys[outcome.index]!, { message: outcome.message, failed: outcome.failed }] as const));
  const nested = new Map([...paused].map(([index, pause]) => [keys[index]!, { snapshot: pause.snapshot, pending: pause.pending }] as const));
  const snapshot = snapshotAt(run, { replies: step.replies, decisions, pending: noPending, done, nested });
  return { exitReason: "confirmation_required", stepCount: run.cursor.stepCount, pending: nestedPending(paused, keys), snapshot };
}

// The paused sub-runs' pending calls, as the caller decides them: keyed `<agent tool call>/<call>`, each segment escaped.
function nestedPending(paused: ReadonlyMap<number, SubRunPause>, keys: readonly string[]): PendingConfirmation[] {
  const pending: PendingConfirmation[] = [];
  for (const [index, pause] of paused) {
    for (const p of pause.pending) {
      pending.push(Object.freeze({ toolCallId: nestedCallKey(keys[index]!, p), toolName: p.toolName, arguments: p.arguments, agent: p.agent === undefined ? pause.toolName : `${pause.toolName}/${p.agent}` }));
    }
  }
  return pending;
}
