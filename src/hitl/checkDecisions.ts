import type { ConfirmationDecision, PendingConfirmation } from "./confirmationTypes";
import { DecisionError } from "../errors";
import { parseDecision } from "./parseDecision";
import { describeKind } from "../util/describeValue";
import { truncateForEcho } from "../util/truncate";

/**
 * Checks decisions for a paused run's pending calls before the run is resumed (a queue checks them
 * when a person answers, so that a bad answer is refused there and the pause stays): each a valid
 * decision, one for every pending call, none for another call. Throws DecisionError naming `subject`.
 */
export function checkDecisionsFor(pending: readonly PendingConfirmation[], decisions: unknown, subject: string): Map<string, ConfirmationDecision> {
  const given = checkDecisions(decisions, subject);
  for (const key of given.keys()) if (!pending.some((p) => p.toolCallId === key)) throw notPending(key, pending, subject);
  checkNoneMissing(pending, given, subject);
  return given;
}

export function checkNoneMissing(pending: readonly PendingConfirmation[], given: ReadonlyMap<string, ConfirmationDecision>, subject: string): void {
  const missing = pending.filter((p) => !given.has(p.toolCallId));
  if (missing.length > 0) {
    throw new DecisionError(
      missing[0]!.toolCallId,
      `${subject} resumes a run waiting for confirmation of ${missing.map((p) => `${p.toolCallId} (${p.toolName})`).join(", ")}; pass decisions: { ${JSON.stringify(missing[0]!.toolCallId)}: { action: "confirm" } } (or "reject", or "modify" with arguments).`,
    );
  }
}

export function notPending(key: string, pending: readonly PendingConfirmation[], subject = "Agent.run"): DecisionError {
  return new DecisionError(
    key,
    `${subject} was given a decision for '${truncateForEcho(key)}', which is not a call waiting for confirmation; pending calls: ${pending.map((p) => p.toolCallId).join(", ") || "none"}.`,
  );
}

export function checkDecisions(value: unknown, subject = "Agent.run"): Map<string, ConfirmationDecision> {
  if (value === undefined) return new Map();
  const entries = value instanceof Map ? [...value.entries()] : typeof value === "object" && value !== null && !Array.isArray(value) ? Object.entries(value) : undefined;
  if (!entries) throw new DecisionError(undefined, `${subject} has decisions that are not an object (or Map) of { toolCallId: decision }, got ${describeKind(value)}.`);
  const decisions = new Map<string, ConfirmationDecision>();
  for (const [id, decision] of entries) {
    const parsed = parseDecision(decision);
    if ("problem" in parsed) throw new DecisionError(String(id), `${subject} has a decision for '${truncateForEcho(String(id))}' that is not valid: ${parsed.problem}.`);
    decisions.set(String(id), parsed.decision);
  }
  return decisions;
}

