import { ChatMessage, type ToolCall } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { ConfigurationError, describeError } from "../errors";
import { mergeToolOutputs } from "../state/mergeToolOutputs";
import type { State } from "../state/state";
import { abortErrorFrom, linkedAbort, raceWithSignal } from "../util/abort";
import { redactValues } from "../util/redact";
import { Semaphore } from "../util/semaphore";
import { prepareArguments } from "./prepareArguments";
import { type Tool, type ToolContext, toolInternals } from "./tool";
import { conversionFailed, mergeFailed, type ToolCallFailure, toolNotFound, toolThrew } from "./toolCallFailure";
import { toolResultText } from "./toolResultText";

/** How one step's tool calls are run. */
export interface InvokeToolsOptions {
  /** The run's tools by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly state: State;
  /** The run's signal: aborting it rejects with an AbortError. */
  readonly signal: AbortSignal;
  /** How many calls may run at once (≥ 1). */
  readonly concurrency: number;
  /** Throw the failure's error instead of sending the model an error message. */
  readonly raiseOnFailure: boolean;
  /** A call that takes longer fails with a timeout message (its signal is aborted). */
  readonly timeoutMs?: number;
  /** Receives one `toolResult` chunk per call, in call order, then a `finish` chunk. */
  readonly streamingCallback?: StreamingCallback;
}

/** One call's outcome: the tool message for the model, and whether the call failed. */
export interface ToolCallOutcome {
  readonly toolCall: ToolCall;
  readonly message: ChatMessage;
  readonly failed: boolean;
}

type Execution =
  | { readonly ok: true; readonly tool: Tool; readonly result: unknown; readonly injected: Injected }
  | { readonly ok: false; readonly failure: ToolCallFailure };

type Injected = ReadonlyArray<{ readonly label: string; readonly value: unknown }>;

/**
 * Runs one step's tool calls (§6): calls run concurrently up to `concurrency`; results are merged
 * into State and turned into messages in the order the model made the calls, whatever order they
 * finish in. A call that reads a key (inputsFromState) an earlier call writes (outputsToState)
 * starts only after that write; a tool that uses the whole State is ordered against every call.
 */
export async function invokeTools(calls: readonly ToolCall[], options: InvokeToolsOptions): Promise<ToolCallOutcome[]> {
  const { tools, state } = options;
  const step = linkedAbort(options.signal);
  const stepSignal = step.signal;
  const semaphore = new Semaphore(options.concurrency);
  const committed = calls.map(() => deferred());
  const resolved = calls.map((call) => tools.get(call.toolName));

  const executions = calls.map(async (call, index): Promise<Execution> => {
    const tool = resolved[index];
    if (!tool) return { ok: false, failure: toolNotFound(call, [...tools.keys()]) };
    const prepared = prepareArguments(tool, call);
    if (!prepared.ok) return { ok: false, failure: prepared.failure };
    const dependency = lastConflictBefore(index, resolved);
    if (dependency !== undefined) await committed[dependency]!.promise;
    stepSignal.throwIfAborted();
    const release = await semaphore.acquire();
    try {
      stepSignal.throwIfAborted();
      return await execute(tool, call, prepared.args, state, stepSignal, options.timeoutMs);
    } finally {
      release();
    }
  });
  for (const execution of executions) execution.catch(() => undefined);

  const outcomes: ToolCallOutcome[] = [];
  try {
    for (const [index, call] of calls.entries()) {
      const execution = await executions[index]!;
      const committedCall = execution.ok ? commit(execution, state) : execution;
      committed[index]!.resolve();
      if (!committedCall.ok && options.raiseOnFailure) throw committedCall.failure.error;
      const text = committedCall.ok ? committedCall.text : committedCall.failure.message;
      const message = ChatMessage.fromTool(text, call, { error: !committedCall.ok });
      outcomes.push({ toolCall: call, message, failed: !committedCall.ok });
      await options.streamingCallback?.({ type: "toolResult", index, toolCall: call, result: message.toolCallResult! });
    }
  } catch (error) {
    // Stop the other calls and wake those waiting for a write that will not come, so that nothing
    // is left running when the step rejects.
    step.abort(options.signal.aborted ? options.signal.reason : error);
    for (const gate of committed) gate.resolve();
    await Promise.allSettled(executions);
    throw options.signal.aborted ? abortErrorFrom(options.signal) : error;
  } finally {
    step.dispose();
  }
  if (calls.length > 0) await options.streamingCallback?.({ type: "finish", finishReason: "tool_call_results" });
  return outcomes;
}

// Merges the result into State and renders its text.
function commit(
  execution: Extract<Execution, { ok: true }>,
  state: State,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly failure: ToolCallFailure } {
  const { tool, result, injected } = execution;
  const mergeFailure = mergeToolOutputs(state, result, tool.outputsToState);
  if (mergeFailure) {
    const detail = sentence(redactValues(describeError(mergeFailure.error), injected));
    return { ok: false, failure: mergeFailed(tool.name, mergeFailure.stateKey, detail, mergeFailure.error) };
  }
  try {
    return { ok: true, text: toolResultText(result, tool.outputsToString) };
  } catch (error) {
    return { ok: false, failure: conversionFailed(tool.name, sentence(redactValues(describeError(error), injected)), error) };
  }
}

async function execute(
  tool: Tool,
  call: ToolCall,
  modelArgs: Record<string, unknown>,
  state: State,
  stepSignal: AbortSignal,
  timeoutMs: number | undefined,
): Promise<Execution> {
  const args = { ...modelArgs };
  const injected: Array<{ label: string; value: unknown }> = [];
  for (const [stateKey, parameter] of Object.entries(tool.inputsFromState)) {
    const value = state.get(stateKey);
    args[parameter] = value;
    injected.push({ label: stateKey, value });
  }
  let timedOut = false;
  const callAbort = timeoutMs === undefined ? undefined : linkedAbort(stepSignal, timeoutMs, () => ((timedOut = true), new Error("tool call timed out")));
  const signal = callAbort?.signal ?? stepSignal;
  const run = toolInternals(tool).run;
  try {
    const pending = Promise.resolve().then(() => run(args, toolContext(tool, state, signal, call)));
    const result = await raceWithSignal(pending, signal, () => signal.reason as Error);
    return { ok: true, tool, result, injected };
  } catch (error) {
    if (stepSignal.aborted) throw stepSignal.reason;
    const detail = timedOut ? `it did not finish within ${timeoutMs} ms.` : sentence(redactValues(describeError(error), injected));
    return { ok: false, failure: toolThrew(tool.name, detail, error) };
  } finally {
    callAbort?.dispose();
  }
}

function toolContext(tool: Tool, state: State, signal: AbortSignal, toolCall: ToolCall): ToolContext {
  return {
    get state(): State {
      if (!tool.usesState) {
        throw new ConfigurationError(
          `Tool '${tool.name}'`,
          `Tool '${tool.name}' read context.state but was not declared with usesState: true; declare it so that its calls are ordered against the other calls of a step.`,
        );
      }
      return state;
    },
    signal,
    toolCall,
  };
}

// The latest earlier call this one must wait for: one that writes a key this call reads, or any
// call when either side uses the whole State. Waiting for the latest is enough, since results are
// committed in call order.
function lastConflictBefore(index: number, tools: ReadonlyArray<Tool | undefined>): number | undefined {
  const tool = tools[index]!;
  const reads = Object.keys(tool.inputsFromState);
  for (let i = index - 1; i >= 0; i--) {
    const earlier = tools[i];
    if (!earlier) continue;
    if (tool.usesState || earlier.usesState) return i;
    if (reads.some((key) => key in earlier.outputsToState)) return i;
  }
  return undefined;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
