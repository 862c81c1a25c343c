import type { ChatGenerator, ChatGeneratorRequest, ChatGeneratorResponse, ToolSpec } from "../chat/chatGenerator";
import { ChatMessage, type ToolCall } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { ChatGeneratorError, describeError, OutputValidationError, SnapshotError } from "../errors";
import type { ConfirmationDecision, ConfirmationStrategy, PendingConfirmation } from "../hitl/confirmationTypes";
import { appendMessages, peekStateValue, type State, type StateJSON } from "../state/state";
import { invokeTools, type InvokeToolsOptions, type NestedStep, type ToolCallOutcome } from "../tools/invokeTools";
import type { NestedPause, NestedResume } from "../compose/nestedRun";
import { nestedCallKey } from "../compose/nestedCallKey";
import type { Tool } from "../tools/tool";
import type { RunAbort } from "../util/runAbort";
import type { TraceContext } from "../observe/agentTracing";
import type { RunObserver } from "../observe/runObserver";
import { callTokens, type UsageTally } from "../observe/runUsage";
import { describeKind } from "../util/describeValue";
import { truncateForEcho } from "../util/truncate";
import type { ExitReason } from "./agentTypes";
import { type Breakpoint, BreakpointError, firesAtModel, firesAtTools } from "./breakpoint";
import { callKeys, decideCalls } from "./decideCalls";
import { checkAnswer, correctionText, type FinalOutput } from "./finalOutput";
import { type AgentSnapshot, attachSnapshot, type RunPosition, snapshotFromPosition } from "./snapshot";

/** Everything one run works with; built by `Agent.run`, private to that run. */
export interface RunContext {
  readonly chatGenerator: ChatGenerator;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly state: State;
  readonly exitConditions: ReadonlySet<string>;
  readonly maxAgentSteps: number;
  readonly toolConcurrency: number;
  readonly toolTimeoutMs: number | undefined;
  readonly raiseOnToolInvocationFailure: boolean;
  readonly generationKwargs: Readonly<Record<string, unknown>> | undefined;
  readonly streamingCallback: StreamingCallback | undefined;
  /** The run's abort plumbing: model calls, confirmations and tool calls race it. */
  readonly abort: RunAbort;
  readonly confirmationStrategies: ReadonlyMap<string, ConfirmationStrategy> | undefined;
  readonly confirmationContext: unknown;
  readonly breakpoint: Breakpoint | undefined;
  /** Signs a snapshot when the Agent has a snapshotKey; returns it as it is otherwise. */
  readonly sealSnapshot: (snapshot: AgentSnapshot) => AgentSnapshot;
  /** The run's id, for idempotency keys: given, or made on first use. */
  readonly runId: () => string;
  /** Receives a snapshot after every completed step (`run({ onCheckpoint })`). */
  readonly onCheckpoint: ((snapshot: AgentSnapshot) => void | Promise<void>) | undefined;
  /** The run's usage so far (a resumed run's starts from its snapshot's). */
  readonly usage: UsageTally;
  /** Tells hooks and the tracer; undefined when the run has neither. */
  readonly observer: RunObserver | undefined;
  /** The trace context of the snapshot the run continues, passed on to its snapshots. */
  readonly continues: TraceContext | undefined;
  /** The run's `outputSchema`, checked: every model call asks for it, and a text answer must match it. */
  readonly output: FinalOutput | undefined;
  /** How many invalid answers are sent back before the run fails. */
  readonly maxOutputRetries: number;
  /** How many agent runs enclose this one's tool calls: 1 for a top-level run, one more per agent tool. */
  readonly depth: number;
}

/** Where the loop starts: a fresh run, or a snapshot's position. */
export type LoopStart = RunPosition & {
  /** True when continuing a snapshot: the point it stopped at is passed without checking the breakpoint. */
  readonly resumed: boolean;
};

/** How the loop ended. */
export type LoopOutcome =
  | { readonly exitReason: "text"; readonly stepCount: number; readonly output?: unknown }
  | { readonly exitReason: ExitReason; readonly stepCount: number }
  | { readonly exitReason: "confirmation_required"; readonly stepCount: number; readonly pending: readonly PendingConfirmation[]; readonly snapshot: AgentSnapshot };

/**
 * The agent loop (§5, §9, §10). Each step calls the model with the whole history and the tools and
 * appends the replies; a text reply ends the run. Otherwise the tool calls are confirmed (§9) and
 * run (§6), and the run ends when an exit-condition tool succeeded. A breakpoint stops the run
 * before its point with a snapshot; a deferred confirmation pauses it with one; a failing model
 * call or (with raiseOnToolInvocationFailure) tool call throws with one from before the step.
 */
export async function runLoop(context: RunContext, start: LoopStart): Promise<LoopOutcome> {
  const { state } = context;
  const toolVisits = new Map(start.visits.tools);
  let modelVisits = start.visits.chatGenerator;
  let stepCount = start.stepCount;
  let next = start.next;
  let toolStep = start.toolStep;
  let resuming = start.resumed;
  // Invalid final answers sent back in this run so far (a resumed run counts from zero).
  let corrections = 0;
  // What every tool step tells its agent tools' calls (a step continued after a pause adds what it continues).
  const runNested: NestedStep = { depth: context.depth, addTokens: (usage) => context.usage.addTokens(usage), paused: new Map() };
  // What every tool step passes to invokeTools, built once per run.
  const toolOptions: InvokeToolsOptions = {
    tools: context.tools,
    state,
    abort: context.abort,
    concurrency: context.toolConcurrency,
    raiseOnFailure: context.raiseOnToolInvocationFailure,
    timeoutMs: context.toolTimeoutMs,
    streamingCallback: context.streamingCallback,
    observer: context.observer,
    nested: runNested,
  };

  for (;;) {
    if (next === "chat_generator") {
      if (stepCount >= context.maxAgentSteps) return { exitReason: "max_agent_steps", stepCount };
      if (!resuming && firesAtModel(context.breakpoint, modelVisits)) throw new BreakpointError(context.breakpoint!, positionSnapshot(context, stepCount, modelVisits, toolVisits, "chat_generator", undefined));
      resuming = false;
      let replies: ChatMessage[];
      try {
        replies = await callModel(context, stepCount + 1);
      } catch (error) {
        attachSnapshot(error, snapshotLater(context, stepCount, modelVisits, toolVisits, "chat_generator", undefined));
        throw error;
      }
      modelVisits += 1;
      stepCount += 1;
      appendMessages(state, replies);
      if (!replies.some(hasToolCalls)) {
        const text = replies.at(-1)?.text;
        if (text === undefined || text.trim() === "") continue;
        if (!context.output) return { exitReason: "text", stepCount };
        const answer = checkAnswer(context.output, text);
        if (answer.ok) return { exitReason: "text", stepCount, output: answer.value };
        // The model sees what was wrong and answers again, a bounded number of times.
        appendMessages(state, [ChatMessage.fromUser(correctionText(answer.problems), { meta: { outputCorrection: corrections + 1 } })]);
        if (corrections++ >= context.maxOutputRetries) {
          const error = new OutputValidationError(
            `The model's final answer did not match the outputSchema after ${context.maxOutputRetries} ${context.maxOutputRetries === 1 ? "correction" : "corrections"}: ${answer.problems.join("; ")}. Raise maxOutputRetries, make the schema easier to meet (describe its fields), or resume from the error's snapshot to ask again.`,
            answer.problems,
            text.slice(0, 2000),
          );
          attachSnapshot(error, () => positionSnapshot(context, stepCount, modelVisits, toolVisits, "chat_generator", undefined));
          throw error;
        }
        if (context.onCheckpoint) await checkpoint(context, positionSnapshot(context, stepCount, modelVisits, toolVisits, "chat_generator", undefined));
        continue;
      }
      next = "tool";
      toolStep = { replies: replies.length, decisions: noDecisions, pending: noPending };
      if (context.onCheckpoint) await checkpoint(context, positionSnapshot(context, stepCount, modelVisits, toolVisits, "tool", toolStep));
      continue;
    }

    const step = toolStep!;
    const calls = stepCalls(peekStateValue(state, "messages") as ChatMessage[], step.replies);
    const keys = callKeys(calls);
    const names = new Set<string>();
    for (const call of calls) if (context.tools.has(call.toolName)) names.add(call.toolName);
    if (!resuming && firesAtTools(context.breakpoint, names, toolVisits)) throw new BreakpointError(context.breakpoint!, positionSnapshot(context, stepCount, modelVisits, toolVisits, "tool", step));
    resuming = false;
    // Without confirmation strategies there is nothing to ask: no await on the common path. A step
    // continued after a sub-run paused it was decided before it first ran.
    const decided = context.confirmationStrategies && !step.nested ? await decideCalls(calls, keys, context, step.decisions) : { decisions: step.decisions, pending: noPending };
    if (decided.pending.length > 0) {
      const paused = positionSnapshot(context, stepCount, modelVisits, toolVisits, "tool", { replies: step.replies, decisions: decided.decisions, pending: decided.pending });
      return { exitReason: "confirmation_required", stepCount, pending: decided.pending, snapshot: paused };
    }
    if (context.observer && decided.decisions.size > 0) observeDecisions(context.observer, calls, keys, decided.decisions);
    const beforeTools = context.raiseOnToolInvocationFailure ? snapshotNow(context, stepCount, modelVisits, toolVisits, "tool", { ...step, decisions: decided.decisions, pending: noPending }) : undefined;
    // A step continued after a sub-run paused it was counted when it first ran.
    if (!step.nested) {
      for (const name of names) toolVisits.set(name, (toolVisits.get(name) ?? 0) + 1);
      toolVisits.set("*", (toolVisits.get("*") ?? 0) + 1);
    }
    let byIndex: Map<number, ConfirmationDecision> | undefined;
    if (decided.decisions.size > 0) {
      byIndex = new Map();
      for (let i = 0; i < keys.length; i++) {
        const decision = decided.decisions.get(keys[i]!);
        if (decision) byIndex.set(i, decision);
      }
    }
    runNested.paused.clear();
    const nested = step.done || step.resumes ? continuedStep(runNested, step, calls, keys) : runNested;
    const options = byIndex || nested !== runNested ? { ...toolOptions, ...(byIndex && { decisions: byIndex }), nested } : toolOptions;
    let outcomes;
    try {
      outcomes = await invokeTools(calls, options, { runId: context.runId, step: stepCount, keys });
    } catch (error) {
      if (beforeTools) attachSnapshot(error, beforeTools);
      throw error;
    }
    if (nested.paused.size > 0) {
      // An agent tool's sub-run paused: the run pauses with one snapshot nesting the sub-runs'; the calls that finished are kept, not run again.
      const done = new Map(outcomes.map((outcome) => [keys[outcome.index]!, { message: outcome.message, failed: outcome.failed }] as const));
      const paused = new Map([...nested.paused].map(([index, pause]) => [keys[index]!, { snapshot: pause.snapshot, pending: pause.pending }] as const));
      const snapshot = positionSnapshot(context, stepCount, modelVisits, toolVisits, "tool", { replies: step.replies, decisions: decided.decisions, pending: noPending, done, nested: paused });
      return { exitReason: "confirmation_required", stepCount, pending: nestedPending(nested.paused, keys), snapshot };
    }
    let failed = 0;
    for (const outcome of outcomes) if (outcome.failed) failed++;
    context.usage.addToolCalls(outcomes.length, failed);
    appendMessages(state, outcomes.map((outcome) => outcome.message));
    next = "chat_generator";
    toolStep = undefined;
    if (context.exitConditions.size > 0) {
      const exit = outcomes.find((outcome) => !outcome.failed && context.exitConditions.has(outcome.toolCall.toolName));
      if (exit) return { exitReason: exit.toolCall.toolName, stepCount };
    }
    if (context.onCheckpoint) await checkpoint(context, positionSnapshot(context, stepCount, modelVisits, toolVisits, "chat_generator", undefined));
  }
}

const noPending: readonly PendingConfirmation[] = Object.freeze([]);

// A step continued after an agent tool's sub-run paused it: the calls that finished, and the sub-runs to continue, by call index.
function continuedStep(base: NestedStep, step: NonNullable<RunPosition["toolStep"]>, calls: readonly ToolCall[], keys: readonly string[]): NestedStep {
  const done = new Map<number, ToolCallOutcome>();
  const resumes = new Map<number, NestedResume>();
  for (let index = 0; index < keys.length; index++) {
    const finished = step.done?.get(keys[index]!);
    if (finished) done.set(index, { index, toolCall: calls[index]!, message: finished.message, failed: finished.failed });
    const resume = step.resumes?.get(keys[index]!);
    if (resume) resumes.set(index, resume);
  }
  return { ...base, done, resumes };
}

// The paused sub-runs' pending calls, as the caller decides them: keyed `<agent tool call>/<call>`, each segment escaped.
function nestedPending(paused: ReadonlyMap<number, NestedPause>, keys: readonly string[]): PendingConfirmation[] {
  const pending: PendingConfirmation[] = [];
  for (const [index, pause] of paused) {
    for (const p of pause.pending) {
      pending.push(Object.freeze({ toolCallId: nestedCallKey(keys[index]!, p), toolName: p.toolName, arguments: p.arguments, agent: p.agent === undefined ? pause.toolName : `${pause.toolName}/${p.agent}` }));
    }
  }
  return pending;
}
// A fresh tool step's decisions: none. Shared, since nothing adds to it (decideCalls copies).
const noDecisions: ReadonlyMap<string, ConfirmationDecision> = new Map();

function positionSnapshot(
  context: RunContext,
  stepCount: number,
  modelVisits: number,
  toolVisits: ReadonlyMap<string, number>,
  at: RunPosition["next"],
  step: RunPosition["toolStep"] | undefined,
): AgentSnapshot {
  const trace = context.observer?.traceContext ?? context.continues;
  const position: RunPosition = {
    stepCount,
    visits: { chatGenerator: modelVisits, tools: new Map(toolVisits) },
    next: at,
    ...(step && { toolStep: step }),
    usage: context.usage.toJSON(),
    ...(trace && { trace }),
  };
  return context.sealSnapshot(snapshotFromPosition(stateJSON(context.state), position));
}

// Hands a checkpoint to run({ onCheckpoint }) and waits for it, unless the run is aborted first.
async function checkpoint(context: RunContext, snapshot: AgentSnapshot): Promise<void> {
  const { abort } = context;
  if (abort.aborted) throw abort.abortError();
  const saved = context.onCheckpoint!(snapshot);
  if (saved && typeof (saved as Promise<void>).then === "function") await abort.race(saved as Promise<void>, () => abort.abortError());
}

function hasToolCalls(message: ChatMessage): boolean {
  for (const part of message.content) if (part.type === "toolCall") return true;
  return false;
}

/** The tool calls of a step: those of its trailing `replies` messages, in order. */
export function stepCalls(messages: readonly ChatMessage[], replies: number): ToolCall[] {
  const calls: ToolCall[] = [];
  for (let i = messages.length - replies; i < messages.length; i++) for (const part of messages[i]!.content) if (part.type === "toolCall") calls.push(part.toolCall);
  return calls;
}

function stateJSON(state: State): StateJSON {
  try {
    return state.toJSON();
  } catch (error) {
    throw new SnapshotError(
      "state",
      `The run could not make its snapshot: ${describeError(error)} A snapshot (to pause for confirmation, stop at a breakpoint, retry a failure or checkpoint a step) is plain JSON, so keep clients and other non-JSON values out of State (a tool's class can hold them).`,
      { cause: error },
    );
  }
}

// A snapshot of the position, built when asked for (on a failure, which may never come).
function snapshotLater(...position: Parameters<typeof positionSnapshot>): () => AgentSnapshot {
  return () => positionSnapshot(...position);
}

// Builds a snapshot now and hands out the outcome later: the snapshot, or the error building it.
function snapshotNow(...position: Parameters<typeof positionSnapshot>): () => AgentSnapshot {
  try {
    const made = positionSnapshot(...position);
    return () => made;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

// Calls the model for step `step` (from 1), counts its usage and tells the observer.
async function callModel(context: RunContext, step: number): Promise<ChatMessage[]> {
  const { abort, state, observer } = context;
  if (abort.aborted) throw abort.abortError();
  // A frozen copy: a generator that pushes to or truncates it cannot change the run's history.
  const request: { -readonly [K in keyof ChatGeneratorRequest]: ChatGeneratorRequest[K] } = {
    messages: Object.freeze((peekStateValue(state, "messages") as ChatMessage[]).slice()),
    tools: context.toolSpecs,
    signal: abort.signal,
  };
  if (context.generationKwargs) request.generationKwargs = context.generationKwargs;
  if (context.output) request.responseFormat = context.output.responseFormat;
  if (context.streamingCallback) request.streamingCallback = context.streamingCallback;
  if (!observer) {
    const response = await abort.race(context.chatGenerator.run(request), () => abort.abortError());
    const replies = checkReplies(response?.replies, step);
    context.usage.addModelCall(callTokens(response, replies));
    return replies;
  }
  const observed = observer.modelStart(step, request);
  if (request.streamingCallback) request.streamingCallback = observed.timeChunks(request.streamingCallback);
  let response: ChatGeneratorResponse;
  let replies: ChatMessage[];
  try {
    response = await abort.race(
      observed.within(() => context.chatGenerator.run(request)),
      () => abort.abortError(),
    );
    replies = checkReplies(response?.replies, step);
  } catch (error) {
    observed.fail(error);
    throw error;
  }
  const tokens = callTokens(response, replies);
  context.usage.addModelCall(tokens);
  observed.end(response, replies, tokens);
  return replies;
}

function checkReplies(replies: unknown, step: number): ChatMessage[] {
  if (!Array.isArray(replies)) {
    throw new ChatGeneratorError(`The chat generator answered step ${step} without a replies array (got ${describeKind(replies)}); a ChatGenerator must resolve to { replies: ChatMessage[] }.`);
  }
  for (let i = 0; i < replies.length; i++) {
    const reply: unknown = replies[i];
    if (!(reply instanceof ChatMessage)) {
      throw new ChatGeneratorError(`The chat generator answered step ${step} with ${describeKind(reply)} at replies[${i}]; replies must be ChatMessage objects.`);
    }
  }
  return replies as ChatMessage[];
}

// One span event per decided call of a step, as its calls run (a strategy's decision, or one given on resume).
function observeDecisions(observer: RunObserver, calls: readonly ToolCall[], keys: readonly string[], decisions: ReadonlyMap<string, ConfirmationDecision>): void {
  for (let i = 0; i < calls.length; i++) {
    const decision = decisions.get(keys[i]!);
    if (decision) observer.event("toolwright.confirmation", { "gen_ai.tool.name": truncateForEcho(calls[i]!.toolName), "gen_ai.tool.call.id": truncateForEcho(keys[i]!), "toolwright.confirmation.action": decision.action });
  }
}
