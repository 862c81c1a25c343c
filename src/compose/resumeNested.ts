import type { ChatMessage } from "../chat/chatMessage";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import type { Tool } from "../tools/tool";
import { truncateForEcho } from "../util/truncate";
import { callKeys, nestedCallKey, stepCalls } from "../run/stepCalls";
import { checkDecisionsFor } from "../hitl/checkDecisions";
import { type NestedResume, type RunPosition, snapshotProblem } from "../agent/snapshot";
import { toolInternals } from "../tools/tool";

/** A paused tool step to continue, as a snapshot gives it back, and what the resumed run brings to it. */
export interface ResumeNestedOptions {
  /** The snapshot's conversation: the step's replies are its last `step.replies` messages. */
  readonly messages: readonly ChatMessage[];
  /** The snapshot's tool step (not trusted). */
  readonly step: NonNullable<RunPosition["toolStep"]>;
  /** The decisions the caller gave, keyed `<agent tool call>/<call>`. */
  readonly given: ReadonlyMap<string, ConfirmationDecision>;
  /** The resumed run's tools. */
  readonly tools: ReadonlyMap<string, Tool>;
}

/**
 * Checks a tool step that an agent tool's sub-run paused, without trusting the snapshot: the
 * finished calls and the paused ones must be calls of the step (a finished call's message must
 * answer that call, a paused one must call an agent tool), the decisions must cover exactly the
 * sub-runs' pending calls (keyed `<agent tool call>/<call>`, each segment escaped), and each sub-run's snapshot must
 * resume with its decisions (its Agent checks it). Returns the sub-runs to continue, by call key.
 */
export function resumeNested(options: ResumeNestedOptions): Map<string, NestedResume> {
  const { messages, step, given, tools } = options;
  const trailing = messages.slice(-step.replies);
  if (trailing.length < step.replies || trailing.some((m) => m.role !== "assistant")) {
    throw snapshotProblem("toolStep.replies", `is ${step.replies}, but the last ${step.replies} messages of state.messages are not all replies of the model`);
  }
  const calls = stepCalls(messages, step.replies);
  const keys = callKeys(calls);
  const byKey = new Map(keys.map((key, i) => [key, calls[i]!] as const));
  if (!step.nested?.size) throw snapshotProblem("toolStep.done", "is only allowed with toolStep.nested (a step an agent tool paused)");
  if (step.pending.length > 0) throw snapshotProblem("toolStep.pending", "must be empty in a step an agent tool paused");
  for (const [key, done] of step.done ?? []) {
    const call = byKey.get(key);
    const origin = done.message.toolCallResult!.origin;
    if (!call) throw snapshotProblem(`toolStep.done.${truncateForEcho(key)}`, "names no tool call of the step");
    if (origin.toolName !== call.toolName || origin.id !== call.id) throw snapshotProblem(`toolStep.done.${truncateForEcho(key)}.message`, "does not answer that call");
  }
  // Every pending call of every sub-run, keyed as the caller decides it; a key two calls share would let one decision run both.
  const pending: PendingConfirmation[] = [];
  const keyed = new Set<string>();
  for (const [key, nested] of step.nested) {
    const call = byKey.get(key);
    if (!call) throw snapshotProblem(`toolStep.nested.${truncateForEcho(key)}`, "names no tool call of the step");
    if (step.done?.has(key)) throw snapshotProblem(`toolStep.nested.${truncateForEcho(key)}`, "names a call that also finished");
    const tool = tools.get(call.toolName);
    if (!tool || !toolInternals(tool).subRun) throw snapshotProblem(`toolStep.nested.${truncateForEcho(key)}`, `names a call to '${truncateForEcho(call.toolName)}', which is not an agent tool of this Agent`);
    for (const p of nested.pending) {
      const toolCallId = nestedCallKey(key, p);
      if (keyed.has(toolCallId)) throw snapshotProblem(`toolStep.nested.${truncateForEcho(key)}.pending`, `has two calls decided by the key '${truncateForEcho(toolCallId)}'`);
      keyed.add(toolCallId);
      pending.push({ ...p, toolCallId });
    }
  }
  checkDecisionsFor(pending, given, "Agent.run");
  const resumes = new Map<string, NestedResume>();
  for (const [key, nested] of step.nested) {
    const decisions = new Map<string, ConfirmationDecision>();
    for (const p of nested.pending) {
      const decision = given.get(nestedCallKey(key, p));
      if (decision) decisions.set(p.toolCallId, decision);
    }
    toolInternals(tools.get(byKey.get(key)!.toolName)!).subRun!.checkResume(nested.snapshot, decisions);
    resumes.set(key, { snapshot: nested.snapshot, decisions });
  }
  return resumes;
}
