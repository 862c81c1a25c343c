import { ChatMessage, type ToolCall } from "../chat/chatMessage";
import type { StreamingCallback, StreamingChunk } from "../chat/streaming";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import { mergeToolOutputs } from "../state/mergeToolOutputs";
import type { State } from "../state/state";
import { AbortScope } from "../util/abortScope";
import { setOwn } from "../util/ownProperty";
import { Semaphore } from "../util/semaphore";
import { isThenable } from "../util/isThenable";
import { describeThrown } from "../util/thrownValue";
import { truncateForEcho } from "../util/truncate";
import { prepareArguments } from "./prepareArguments";
import { CallContext, type StepIdentity } from "./callContext";
import { deferred, scheduleCalls } from "./callOrder";
import { decidedCall, decisionMeta, withDecisionNote } from "./decisionNote";
import { type SubRunTool, type Tool, toolInternals } from "./tool";
import { injectionProblem } from "./injectedParameters";
import { conversionFailed, injectionFailed, invalidUserArguments, mergeFailed, rejectedByUser, type ToolCallFailure, toolNotFound, toolThrew, toolTimedOut } from "./toolCallFailure";
import type { reportToolFault } from "./reportToolFault";
import { capResultParts, capResultText } from "./toolResultText";
import { type ToolResultContent, toolResultContent } from "./toolResultContent";
import { defaultMaxToolResultChars } from "./toolLimits";
import { mayRetry, retryDelay } from "./toolRetry";
import type { ToolCallObservation } from "../observe/callObservation";
import type { RunObserver } from "../observe/runObserver";
import type { RunUsage } from "../observe/runUsage";
import type { NestedResume } from "../agent/snapshot";
import type { SubRunCall, SubRunPause } from "./subRun";

/** How one step's tool calls are run. */
export interface InvokeToolsOptions {
  /** The run's tools by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly state: State;
  /** The run's abort plumbing: its signal aborting rejects with an AbortError; a step that throws aborts it to stop its other calls. */
  readonly abort: AbortScope;
  /**
   * Removes the injected state values (labelled by state key) from an error's text before the model
   * sees it: `redactValues` from util/redact, given by every caller (the Agent, ToolRunner), so that
   * the executor does not decide what the model may read.
   */
  readonly redact: (text: string, values: Injected) => string;
  /**
   * Tells the developer of a fault in their code (a tool that threw, a merge handler that failed):
   * `reportToolFault`, given by every caller, so that the executor does not decide where faults go
   * (`onToolError` hooks, the debug log).
   */
  readonly reportFault: typeof reportToolFault;
  /** How many calls may run at once (≥ 1). */
  readonly concurrency: number;
  /** Throw the failure's error instead of sending the model an error message. */
  readonly raiseOnFailure: boolean;
  /**
   * Throw for a merge handler that threw even without `raiseOnFailure` (an Agent run, as Haystack
   * main raises it); ToolRunner answers every failure instead.
   */
  readonly raiseHandlerFaults?: boolean;
  /** A call that takes longer fails with a timeout message (its signal is aborted); a tool's own `timeoutMs` overrides it. Each attempt gets the whole limit. */
  readonly timeoutMs?: number;
  /** The most characters of one tool message the model is sent (default `defaultMaxToolResultChars`); a tool's own `maxResultChars` overrides it. */
  readonly maxResultChars?: number;
  /** Receives one `toolResult` chunk per call as it is committed (unknown tools first, then batch after batch), then a `finish` chunk. */
  readonly streamingCallback?: StreamingCallback;
  /** Decisions of people about calls, by call index: rejected calls do not run, modified ones run with the new arguments. */
  readonly decisions?: ReadonlyMap<number, ConfirmationDecision>;
  /** Tells the run's hooks and tracer when each call starts and ends. */
  readonly observer?: RunObserver;
  /** Agent tools' sub-runs (an Agent run's step only): how deep, what to continue, what paused. */
  readonly nested?: NestedStep;
  /** Told of each call as it ends, in commit order, before its result is committed: may replace the result (of a call that succeeded) or the text the model gets. */
  readonly afterCall?: (call: EndedCall) => AfterCallChange | undefined | Promise<AfterCallChange | undefined>;
}

/** A call that ended, as `afterCall` is told of it. */
export interface EndedCall {
  readonly toolCall: ToolCall;
  /** The call's key within the step (its id, or `#<index>`). */
  readonly key: string;
  readonly index: number;
  readonly failed: boolean;
  /** What the tool returned; undefined for a failed call. */
  readonly result: unknown;
}

/** What `afterCall` changes: the value to commit (`result`, when present), the model's text. */
export interface AfterCallChange {
  readonly result?: unknown;
  readonly text?: string;
}

/** What a step of an Agent run tells its agent tools' calls, and learns from them. */
export interface NestedStep {
  /** How many agent runs enclose this step's calls (1 for a top-level run). */
  readonly depth: number;
  /** Adds a sub-run's tokens to the run's usage. */
  readonly addTokens: (usage: RunUsage) => void;
  /** Paused sub-runs to continue, by call index. */
  readonly resumes?: ReadonlyMap<number, NestedResume>;
  /** Calls that finished before the step paused, by index: not run again. */
  readonly done?: ReadonlyMap<number, ToolCallOutcome>;
  /** Filled by the step: the calls whose sub-run paused, by index. Calls that wait for one of them are held back (neither run nor answered). */
  readonly paused: Map<number, SubRunPause>;
}

export type { StepIdentity } from "./callContext";

// Calls invoked outside an Agent run (tests of this module): keys made of their ids.
const outsideARun: StepIdentity = { runId: () => "none", step: 0, keys: [] };

/** One call's outcome: the tool message for the model, and whether the call failed. */
export interface ToolCallOutcome {
  /** The call's position in the step. */
  readonly index: number;
  readonly toolCall: ToolCall;
  readonly message: ChatMessage;
  readonly failed: boolean;
  /** What the tool returned, when the call succeeded (for callers that pass it on as data, like serveMcp's `structuredContent`). */
  readonly value?: unknown;
}

type Execution =
  | ((
      | { readonly ok: true; readonly tool: Tool; readonly result: unknown; readonly injected: Injected }
      | { readonly ok: false; readonly failure: ToolCallFailure; readonly injected?: Injected }
    ) & { readonly decision?: ConfirmationDecision; readonly held?: undefined })
  // Not answered in this pass: an agent tool whose sub-run paused, a call that waits for one, or a call that finished before the pause.
  | { readonly held: "paused"; readonly pause: SubRunPause }
  | { readonly held: "waiting" }
  | { readonly held: "done"; readonly outcome: ToolCallOutcome };

/** The values a call's inputsFromState injected, labelled by state key. */
export type Injected = ReadonlyArray<{ readonly label: string; readonly value: unknown }>;

/**
 * Runs one step's tool calls as Haystack main's `_run_tool` does: calls run concurrently up to
 * `concurrency`, in batches (`scheduleCalls`) so that a call reading a state key (inputsFromState)
 * starts after every call of the step that writes it (outputsToState), whatever order the model
 * asked for. Results are merged into State batch after batch (each in call order); the messages
 * come back with the unknown-tool errors first, then the other calls in the model's order.
 */
export async function invokeTools(calls: readonly ToolCall[], options: InvokeToolsOptions, step: StepIdentity = outsideARun): Promise<ToolCallOutcome[]> {
  const { tools, state, abort } = options;
  const resolved = calls.map((call) => tools.get(call.toolName));
  // Haystack main raises for an unknown tool before any call runs (`_resolve_tool_calls`).
  if (options.raiseOnFailure) {
    const unknown = calls.findIndex((call, index) => !resolved[index] && !options.nested?.done?.has(index));
    if (unknown >= 0) throw toolNotFound(calls[unknown]!, [...tools.keys()]).error;
  }
  const schedule = scheduleCalls(resolved);
  // Gates and a semaphore only when a step needs them: most steps have one batch and fewer
  // calls than the concurrency limit.
  const committed = schedule.lastOfBatch.length > 1 ? calls.map(() => deferred()) : undefined;
  const semaphore = calls.length > options.concurrency ? new Semaphore(options.concurrency) : undefined;
  // The calls that started running, under observation (with hooks or a tracer only).
  const observed: Array<ToolCallObservation | undefined> | undefined = options.observer && [];

  const nested = options.nested;
  // Calls not answered in this pass (paused, or waiting for a paused call): the calls of later batches are held back too.
  const heldBack = nested && new Set<number>();
  const executions = calls.map(async (call, index): Promise<Execution> => {
    const done = nested?.done?.get(index);
    if (done) return { held: "done", outcome: done };
    const tool = resolved[index];
    if (!tool) return { ok: false, failure: toolNotFound(call, [...tools.keys()]) };
    const prepared = prepareArguments(tool, call);
    if (!prepared.ok) return { ok: false, failure: prepared.failure };
    const decision = options.decisions?.get(index);
    let args = prepared.args;
    if (decision?.action === "reject") return { ok: false, failure: rejectedByUser(tool.name, decision.feedback), decision };
    if (decision?.action === "modify") {
      const modified = toolInternals(tool).validator.validate({ ...decision.arguments });
      if (!modified.ok) return { ok: false, failure: invalidUserArguments(tool.name, modified.problems, Object.keys(tool.parameters.properties ?? {})), decision };
      args = modified.value;
    }
    const batch = schedule.batch[index]!;
    if (batch > 0) {
      await committed![schedule.lastOfBatch[batch - 1]!]!.promise;
      if (heldBack && heldBack.size > 0) return { held: "waiting" };
    }
    abort.throwIfAborted();
    const release = semaphore && (await semaphore.acquire());
    try {
      abort.throwIfAborted();
      const execution = await execute({ tool, call, modelArgs: args, options, step, index, observed });
      if (execution.held) return execution;
      return decision ? { ...execution, decision } : execution;
    } finally {
      release?.();
    }
  });
  for (const execution of executions) execution.catch(ignore);

  // Committed in schedule order; unknown tools first (they commit nothing), as Haystack lists their errors first.
  const outcomes: ToolCallOutcome[] = [];
  const known: Array<ToolCallOutcome | undefined> = [];
  const commitOrder = schedule.order.length === calls.length ? schedule.order : [...calls.keys()].filter((index) => !resolved[index]).concat(schedule.order);
  try {
    for (const index of commitOrder) {
      const call = calls[index]!;
      const execution = await executions[index]!;
      if (execution.held) {
        if (execution.held === "done") known[index] = execution.outcome;
        else {
          heldBack!.add(index);
          if (execution.held === "paused") {
            nested!.paused.set(index, execution.pause);
            observed?.[index]?.abandon(execution.pause);
          }
        }
        committed?.[index]!.resolve();
        continue;
      }
      let change: AfterCallChange | undefined;
      if (options.afterCall) {
        const told = options.afterCall({ toolCall: call, key: step.keys[index] ?? call.id ?? `#${index}`, index, failed: !execution.ok, result: execution.ok ? execution.result : undefined });
        change = isThenable(told) ? await told : told;
      }
      const committedCall = execution.ok ? commit(change && "result" in change ? { ...execution, result: change.result } : execution, state, options.redact) : execution;
      committed?.[index]!.resolve();
      // The developer hears of a fault before the call's end is told, whether the run goes on or throws.
      if (!committedCall.ok && committedCall.failure.fault) {
        options.reportFault(committedCall.failure.fault, { toolName: resolved[index]!.name, call, run: step === outsideARun ? undefined : step, observer: options.observer });
      }
      if (!committedCall.ok && ((committedCall.failure.raise === true && options.raiseHandlerFaults) || (options.raiseOnFailure && committedCall.failure.raise !== false))) {
        observed?.[index]?.abandon(committedCall.failure.error);
        throw committedCall.failure.error;
      }
      const full = change?.text ?? (committedCall.ok ? withDecisionNote(committedCall.content, execution.decision) : committedCall.failure.message);
      const tool = resolved[index];
      const content = cappedContent(full, tool?.name ?? truncateForEcho(call.toolName), tool?.maxResultChars ?? options.maxResultChars ?? defaultMaxToolResultChars);
      const message = ChatMessage.fromTool(content, decidedCall(call, execution.decision), execution.decision ? { error: !committedCall.ok, meta: decisionMeta(call, execution.decision) } : { error: !committedCall.ok });
      // A call that never ran (unknown tool, invalid arguments, rejected, no injected value) starts and ends at once.
      if (observed) (observed[index] ?? options.observer!.toolNeverRan(step.step, call)).end(message, committedCall.ok ? undefined : committedCall.failure, execution.injected ?? noneInjected);
      const outcome: ToolCallOutcome = { index, toolCall: call, message, failed: !committedCall.ok, ...(committedCall.ok && execution.ok && { value: change && "result" in change ? change.result : execution.result }) };
      if (resolved[index]) known[index] = outcome;
      else outcomes.push(outcome);
      if (options.streamingCallback) await emit(options, { type: "toolResult", index, toolCall: call, result: message.toolCallResult! });
    }
  } catch (error) {
    // Stop the other calls (the run ends with this error) and wake those waiting for a write that
    // will not come, so that nothing is left running when the step rejects.
    const callerAborted = abort.aborted;
    abort.abort(error);
    if (committed) for (const gate of committed) gate.resolve();
    await Promise.allSettled(executions);
    if (observed) for (const observation of observed) observation?.abandon(callerAborted ? abort.abortError() : error);
    throw callerAborted ? abort.abortError() : error;
  }
  for (const outcome of known) if (outcome) outcomes.push(outcome);
  if (calls.length > 0 && options.streamingCallback && !nested?.paused.size) await emit(options, { type: "finish", finishReason: "tool_call_results" });
  return outcomes;
}

function ignore(): void {}

// Text is cut to the limit; a result with media has its text parts cut together, its images and files kept.
function cappedContent(content: ToolResultContent, toolName: string, maxChars: number): ToolResultContent {
  return typeof content === "string" ? capResultText(content, toolName, maxChars) : capResultParts(content, toolName, maxChars);
}

// A slow streaming callback must not hold up an abort.
async function emit(options: InvokeToolsOptions, chunk: StreamingChunk): Promise<void> {
  const pending = options.streamingCallback?.(chunk);
  if (isThenable(pending)) await options.abort.race(Promise.resolve(pending), () => options.abort.abortError());
}

// Merges the result into State and renders its text.
function commit(
  execution: Extract<Execution, { ok: true }>,
  state: State,
  redact: InvokeToolsOptions["redact"],
): { readonly ok: true; readonly content: ToolResultContent } | { readonly ok: false; readonly failure: ToolCallFailure } {
  const { tool, result, injected } = execution;
  const mergeFailure = mergeToolOutputs(state, result, tool.outputsToState);
  if (mergeFailure) {
    const detail = sentence(redact(describeThrown(mergeFailure.error), injected));
    return { ok: false, failure: mergeFailed(tool.name, mergeFailure, detail) };
  }
  try {
    return { ok: true, content: toolResultContent(result, tool.outputsToString) };
  } catch (error) {
    return { ok: false, failure: conversionFailed(tool.name, sentence(redact(describeThrown(error), injected)), error) };
  }
}

/** One call to run: the tool, the call, its validated arguments, and the step it belongs to. */
interface CallToRun {
  readonly tool: Tool;
  readonly call: ToolCall;
  readonly modelArgs: Record<string, unknown>;
  readonly options: InvokeToolsOptions;
  readonly step: StepIdentity;
  readonly index: number;
  /** The step's observations (with hooks or a tracer only): this call's is added. */
  readonly observed: Array<ToolCallObservation | undefined> | undefined;
}

async function execute(run: CallToRun): Promise<Execution> {
  const { tool, call, modelArgs, options, step, index, observed } = run;
  const { state, abort } = options;
  const internals = toolInternals(tool);
  let args = modelArgs;
  let injected: Injected = noneInjected;
  const mappings = internals.inputsFromState;
  if (mappings.length > 0) {
    args = { ...modelArgs };
    const values: Array<{ label: string; value: unknown }> = [];
    for (const [stateKey, parameter] of mappings) {
      const value = state.get(stateKey);
      const problem = injectionProblem(internals.injected.get(parameter)!, value);
      if (problem) return { ok: false, failure: injectionFailed({ toolName: tool.name, stateKey, parameter, problem }) };
      setOwn(args, parameter, value);
      values.push({ label: stateKey, value });
    }
    injected = values;
  }
  const observation = observed && (observed[index] = options.observer!.toolStart(step.step, call, modelArgs));
  const { subRun } = internals;
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs;
  try {
    for (let attempt = 1; ; attempt++) {
      let tried = attemptCall({ run, args, timeoutMs, observation });
      if (isThenable(tried)) tried = await tried;
      if (tried.ok) {
        let result = tried.result;
        if (subRun) {
          const outcome = result as Awaited<ReturnType<SubRunTool["run"]>>;
          if (outcome.paused) return { held: "paused", pause: outcome.paused };
          result = outcome.value;
        }
        return { ok: true, tool, result, injected };
      }
      // An agent tool's sub-run is never run again: it may have paused, streamed or spent tokens.
      if (!subRun && mayRetry(tool, attempt, tried.error)) {
        await abort.sleep(retryDelay(tool, attempt));
        observation?.retrying();
        continue;
      }
      if (tried.timedOut) return { ok: false, failure: toolTimedOut(tool.name, timeoutMs!, tried.error), injected };
      return { ok: false, failure: toolThrew(tool.name, sentence(options.redact(describeThrown(tried.error), injected)), tried.error), injected };
    }
  } finally {
    observation?.finished();
  }
}

/** One attempt of a call: the tool's function with its own context (and time limit, when it has one). */
interface Attempt {
  readonly run: CallToRun;
  readonly args: Record<string, unknown>;
  readonly timeoutMs: number | undefined;
  readonly observation: ToolCallObservation | undefined;
}

type AttemptOutcome = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: unknown; readonly timedOut: boolean };

// Runs the function once; a run that aborted rejects, a call that threw or timed out is an outcome.
function attemptCall(attempt: Attempt): AttemptOutcome | Promise<AttemptOutcome> {
  const { run, args, timeoutMs, observation } = attempt;
  const { abort } = run.options;
  const internals = toolInternals(run.tool);
  // Only a call with its own time limit gets a controller (and a timer) of its own.
  const limit = { timedOut: false };
  const callAbort = timeoutMs === undefined ? undefined : new AbortScope(abort.signal, { timeoutMs, onTimeout: () => ((limit.timedOut = true), new Error("tool call timed out")) });
  const context = new CallContext(run, callAbort?.signal ?? abort);
  const { subRun } = internals;
  const end = () => {
    context.end();
    callAbort?.dispose();
  };
  let returned: unknown;
  try {
    const start = subRun ? () => subRun.run(args, context, subRunCall(run.options, run.index)) : () => internals.run(args, context);
    returned = observation ? observation.within(start) : start();
  } catch (error) {
    end();
    return failedAttempt(abort, error, limit.timedOut);
  }
  // A tool that returns a value (not a promise) is done: nothing to wait for or race.
  if (!isThenable(returned)) {
    end();
    return { ok: true, result: returned };
  }
  return raceCall(returned, abort, callAbort?.signal).then(
    (result): AttemptOutcome => (end(), { ok: true, result }),
    (error: unknown) => (end(), failedAttempt(abort, error, limit.timedOut)),
  );
}

// A failed attempt; when the run was aborted, its abort reason is thrown instead.
function failedAttempt(abort: AbortScope, error: unknown, timedOut: boolean): AttemptOutcome {
  if (abort.aborted) throw abort.reason;
  return { ok: false, error, timedOut };
}

const noneInjected: Injected = [];

// What a call of a tool that runs an agent learns from the step: how deep, where the stream goes, whether it may pause, what to continue.
function subRunCall(options: InvokeToolsOptions, index: number): SubRunCall {
  const { nested } = options;
  return {
    depth: nested?.depth ?? 1,
    streamingCallback: options.streamingCallback,
    canPause: nested !== undefined,
    resume: nested?.resumes?.get(index),
    addTokens: nested?.addTokens ?? ignore,
  };
}


// Waits for a tool's promise, or rejects as soon as the run aborts or (with a time limit) the call times out.
function raceCall(returned: PromiseLike<unknown>, abort: AbortScope, callSignal: AbortSignal | undefined): Promise<unknown> {
  const pending = Promise.resolve(returned);
  if (!callSignal) return abort.race(pending, () => abort.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(callSignal.reason as Error);
    if (callSignal.aborted) return onAbort();
    callSignal.addEventListener("abort", onAbort, { once: true });
    pending.then(resolve, reject).finally(() => callSignal.removeEventListener("abort", onAbort));
  });
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
