import { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError, describeError } from "../errors";
import { DeferredConfirmationStrategy } from "../hitl/confirmationStrategies";
import type { ConfirmationStrategy, PendingConfirmation } from "../hitl/confirmationTypes";
import { checkDecisions, checkNoneMissing, notPending } from "../hitl/checkDecisions";
import { strategyFor } from "../hitl/strategyFor";
import { peekStateValue, State } from "../state/state";
import type { StateSchema } from "../state/stateSchema";
import { prepareArguments } from "../tools/prepareArguments";
import type { Tool } from "../tools/tool";
import { canonicalJson } from "../util/canonicalJson";
import { truncateForEcho } from "../util/truncate";
import { describeKind } from "../util/describeValue";
import { isPlainObject } from "../util/isPlainObject";
import { callKeys, stepCalls } from "../run/stepCalls";
import type { LoopStart } from "../run/runContext";
import { type AgentSnapshot, parseSnapshot, snapshotProblem } from "./snapshot";
import { resumeNested } from "../compose/resumeNested";
import type { SnapshotSigner } from "./snapshotSigner";

/** What resuming needs from the Agent and the run. */
export interface ResumeContext {
  readonly schema: StateSchema | undefined;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly strategies: ReadonlyMap<string, ConfirmationStrategy> | undefined;
  readonly confirmationContext: unknown;
  readonly signal: AbortSignal;
  /** With a snapshotKey: only snapshots it signed are resumed. */
  readonly signer: SnapshotSigner | undefined;
  /** Only check (an agent tool's paused sub-run, checked when its caller resumes): tell no policy of the decisions. */
  readonly checkOnly?: boolean;
  /** State values to set over the snapshot's before the run continues (`run({ stateUpdates })`). */
  readonly stateUpdates?: unknown;
}

/**
 * Rebuilds a run from a snapshot without trusting it: every field is checked (a `SnapshotError`
 * names the one at fault), the signature when the Agent signs snapshots, the state against the
 * schema, and the paused step against the conversation it carries: its pending calls are derived
 * again from the messages, and the snapshot must agree with them. The given decisions must cover
 * exactly the pending calls.
 */
export function resumeRun(value: unknown, decisions: unknown, context: ResumeContext): { state: State; start: LoopStart } {
  const parsed = parseSnapshot(value);
  const resumed = resumeAt(value, parsed, decisions, context);
  return parsed.conversation === undefined ? resumed : { state: resumed.state, start: { ...resumed.start, conversation: parsed.conversation } };
}

function resumeAt(value: unknown, parsed: ReturnType<typeof parseSnapshot>, decisions: unknown, context: ResumeContext): { state: State; start: LoopStart } {
  if (context.signer) context.signer.verify(value as AgentSnapshot, parsed.signature);
  const state = stateFrom(parsed.state, context.schema);
  if (context.stateUpdates !== undefined) applyStateUpdates(state, context.stateUpdates);
  const messages = peekStateValue(state, "messages") as ChatMessage[] | undefined;
  if (!messages?.length) throw snapshotProblem("state.messages", "is missing or empty; a run always has its conversation");
  const { position } = parsed;
  const step = position.toolStep;
  const given = checkDecisions(decisions);
  if (!step) {
    if (given.size > 0) throw notPending([...given.keys()][0]!, []);
    return { state, start: { ...position, resumed: true } };
  }
  if (step.nested || step.done) {
    const resumes = resumeNested({ messages, step, given, tools: context.tools });
    return { state, start: { ...position, toolStep: { ...step, resumes }, resumed: true } };
  }
  const derived = checkStep(messages, step, context.tools);
  for (const key of given.keys()) if (!derived.has(key)) throw notPending(key, step.pending);
  checkNoneMissing(step.pending, given, "Agent.run");
  if (context.checkOnly) return { state, start: { ...position, resumed: true } };
  for (const [key, ran] of derived) {
    const strategy = strategyFor(context.strategies, ran.toolName);
    // The policy learns what runs: the arguments in the conversation, not the snapshot's copy of them.
    if (strategy instanceof DeferredConfirmationStrategy) {
      strategy.policy.recordDecision?.(
        { toolName: ran.toolName, description: ran.description, arguments: ran.arguments, toolCallId: key, context: context.confirmationContext, signal: context.signal },
        given.get(key)!,
      );
    }
  }
  const toolStep = { replies: step.replies, decisions: new Map([...step.decisions, ...given]), pending: [] };
  return { state, start: { ...position, toolStep, resumed: true } };
}

// Each key merged and checked as a tool's output is: StateKeyError or StateTypeError name the key at fault.
function applyStateUpdates(state: State, updates: unknown): void {
  if (!isPlainObject(updates)) throw new ConfigurationError("Agent.run", `Agent.run has stateUpdates that is not an object of { stateKey: value }, got ${describeKind(updates)}.`);
  if (Object.hasOwn(updates, "messages")) {
    throw new ConfigurationError("Agent.run", "Agent.run has stateUpdates with 'messages'; a continued run keeps its snapshot's conversation, so set other state keys (the state a middleware or guardrail reads).");
  }
  for (const [key, value] of Object.entries(updates)) state.set(key, value as never);
}

function stateFrom(json: AgentSnapshot["state"], schema: StateSchema | undefined): State {
  try {
    return State.fromJSON(schema ?? {}, json) as unknown as State;
  } catch (error) {
    const key = (error as { key?: unknown }).key;
    if (key === "messages") messageProblem(json.messages);
    throw snapshotProblem(typeof key === "string" ? `state.${truncateForEcho(key)}` : "state", `does not fit the Agent's state schema (${describeError(error).replace(/\.$/, "")})`, error);
  }
}

// A message the state refused: the first that ChatMessage.fromJSON refuses, by index, with its reason
// (a corrupted image's bad base64, a MIME type its bytes contradict, an oversize part). Only on the
// error path: a snapshot that loads is not parsed twice.
function messageProblem(messages: unknown): void {
  if (!Array.isArray(messages)) return;
  messages.forEach((json: unknown, i) => {
    try {
      ChatMessage.fromJSON(json);
    } catch (error) {
      throw snapshotProblem(`state.messages[${i}]`, `is not a valid message (${describeError(error).replace(/\.$/, "")})`, error);
    }
  });
}

interface PendingCall {
  readonly toolName: string;
  readonly description: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

// The step's calls as the conversation has them; the snapshot's pending calls and decisions must
// name calls of the step, and a pending call's tool and arguments must be the call's.
function checkStep(messages: readonly ChatMessage[], step: NonNullable<LoopStart["toolStep"]>, tools: ReadonlyMap<string, Tool>): Map<string, PendingCall> {
  const trailing = messages.slice(-step.replies);
  if (trailing.length < step.replies || trailing.some((m) => m.role !== "assistant")) {
    throw snapshotProblem("toolStep.replies", `is ${step.replies}, but the last ${step.replies} messages of state.messages are not all replies of the model`);
  }
  const calls = stepCalls(messages, step.replies);
  if (calls.length === 0) throw snapshotProblem("toolStep.replies", `is ${step.replies}, but those replies make no tool call`);
  const keys = callKeys(calls);
  const byKey = new Map(keys.map((key, i) => [key, calls[i]!] as const));
  for (const key of step.decisions.keys()) {
    if (!byKey.has(key)) throw snapshotProblem(`toolStep.decisions.${truncateForEcho(key)}`, "names no tool call of the step");
  }
  const pending = new Map<string, PendingCall>();
  step.pending.forEach((p: PendingConfirmation, i) => {
    const field = `toolStep.pending[${i}]`;
    const call = byKey.get(p.toolCallId);
    if (!call) throw snapshotProblem(`${field}.toolCallId`, `'${truncateForEcho(p.toolCallId)}' names no tool call of the step; its calls: ${keys.join(", ")}`);
    if (pending.has(p.toolCallId) || step.decisions.has(p.toolCallId)) throw snapshotProblem(`${field}.toolCallId`, `'${truncateForEcho(p.toolCallId)}' is pending twice or already decided`);
    if (p.toolName !== call.toolName) throw snapshotProblem(`${field}.toolName`, `is '${truncateForEcho(p.toolName)}', but the call is to '${truncateForEcho(call.toolName)}'`);
    const tool = tools.get(call.toolName);
    const prepared = tool && prepareArguments(tool, call);
    if (!tool || !prepared?.ok) throw snapshotProblem(`${field}.toolCallId`, "names a call that cannot run (unknown tool or invalid arguments), so it cannot wait for confirmation");
    if (canonicalJson(prepared.args) !== canonicalJson(p.arguments)) throw snapshotProblem(`${field}.arguments`, "differ from the arguments of the call in state.messages");
    pending.set(p.toolCallId, { toolName: tool.name, description: tool.description, arguments: prepared.args });
  });
  return pending;
}

