import { ConfigurationError } from "../errors";
import { DeferredConfirmationStrategy } from "../hitl/confirmationStrategies";
import type { ConfirmationDecision, ConfirmationStrategies } from "../hitl/confirmationTypes";
import { State, type StateJSON } from "../state/state";
import type { StateSchema } from "../state/stateSchema";
import { describeKind } from "../util/describeValue";
import type { LoopStart } from "./runLoop";
import { type AgentSnapshot, decisionProblem, parseSnapshot } from "./snapshot";

/**
 * Rebuilds a run from a snapshot: its State (checked against the schema) and where the loop
 * continues, with the given decisions added to the step's. Every pending call needs a decision,
 * and every decision must name a pending call.
 */
export function resumeRun(
  value: unknown,
  decisions: unknown,
  schema: StateSchema | undefined,
  strategies: ConfirmationStrategies | undefined,
  context: unknown,
): { state: State; start: LoopStart } {
  const parsed = parseSnapshot(value);
  if ("problem" in parsed) {
    throw new ConfigurationError("Agent.run", `Agent.run was given a snapshot that is not an agent snapshot (${parsed.problem}); pass the snapshot a stopped run produced, unchanged.`);
  }
  const snapshot: AgentSnapshot = parsed;
  const state = State.fromJSON(schema ?? {}, snapshot.state as StateJSON) as unknown as State;
  const given = checkDecisions(decisions);
  const step = snapshot.toolStep;
  const pending = step?.pending ?? [];
  for (const id of Object.keys(given)) {
    if (!pending.some((p) => p.toolCallId === id)) {
      throw new ConfigurationError(
        "Agent.run",
        `Agent.run was given a decision for '${id}', which is not a call waiting for confirmation; pending calls: ${pending.map((p) => p.toolCallId).join(", ") || "none"}.`,
      );
    }
  }
  const missing = pending.filter((p) => !given[p.toolCallId]);
  if (missing.length > 0) {
    throw new ConfigurationError(
      "Agent.run",
      `Agent.run resumes a run waiting for confirmation of ${missing.map((p) => `${p.toolCallId} (${p.toolName})`).join(", ")}; pass decisions: { ${JSON.stringify(missing[0]!.toolCallId)}: { action: "confirm" } } (or "reject", or "modify" with arguments).`,
    );
  }
  for (const p of pending) {
    const strategy = strategies?.[p.toolName] ?? strategies?.["*"];
    if (strategy instanceof DeferredConfirmationStrategy) {
      strategy.policy.recordDecision?.({ toolName: p.toolName, description: "", arguments: p.arguments, toolCallId: p.toolCallId, context }, given[p.toolCallId]!);
    }
  }
  const toolStep = step && { replies: step.replies, decisions: { ...step.decisions, ...given }, pending: [] };
  return { state, start: { stepCount: snapshot.stepCount, visits: snapshot.visits, next: snapshot.next, ...(toolStep && { toolStep }), resumed: true } };
}

function checkDecisions(value: unknown): Record<string, ConfirmationDecision> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError("Agent.run", `Agent.run has decisions that are not an object of { toolCallId: decision }, got ${describeKind(value)}.`);
  }
  for (const [id, decision] of Object.entries(value)) {
    const problem = decisionProblem(decision);
    if (problem) throw new ConfigurationError("Agent.run", `Agent.run has a decision for '${id}' that is not valid: ${problem}.`);
  }
  return value as Record<string, ConfirmationDecision>;
}
