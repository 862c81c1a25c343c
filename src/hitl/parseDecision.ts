import { screenArguments } from "../tools/argumentValidator";
import { cloneValue } from "../util/cloneValue";
import { deepFreeze } from "../util/deepFreeze";
import type { ConfirmationDecision } from "./confirmationTypes";
import { isPlainObject } from "../util/isPlainObject";

/** The shape every decision must have, for messages. */
export const decisionShape = '{ action: "confirm" | "reject", feedback? } or { action: "modify", arguments: {...}, feedback? }';

/**
 * Checks a decision from a person (a strategy's answer, `agent.run({ decisions })`, a snapshot) and
 * returns a frozen copy the caller can no longer change, or the problem. Modified arguments are
 * screened like the model's (depth, `__proto__` keys); the schema check happens when the call runs.
 */
export function parseDecision(value: unknown): { readonly decision: ConfirmationDecision } | { readonly problem: string } {
  if (!isPlainObject(value)) return { problem: `a decision is ${decisionShape}` };
  const { action, feedback } = value;
  const allowed = action === "modify" ? ["action", "arguments", "feedback"] : ["action", "feedback"];
  if (action !== "confirm" && action !== "reject" && action !== "modify") return { problem: `a decision is ${decisionShape}` };
  const extra = Object.keys(value).find((key) => !allowed.includes(key));
  if (extra !== undefined) return { problem: `a ${action} decision has no '${extra.slice(0, 64)}' field; a decision is ${decisionShape}` };
  if (feedback !== undefined && typeof feedback !== "string") return { problem: "feedback must be a string" };
  if (action !== "modify") return { decision: Object.freeze({ action, ...(feedback !== undefined && { feedback }) }) };
  if (!isPlainObject(value.arguments)) return { problem: "a modify decision needs arguments: an object of the tool's parameters" };
  const screened = screenArguments(value.arguments);
  if (screened) return { problem: `its arguments are refused: ${screened.path} ${screened.message}` };
  const args = deepFreeze(cloneValue(value.arguments));
  return { decision: Object.freeze({ action, arguments: args, ...(feedback !== undefined && { feedback }) }) };
}
