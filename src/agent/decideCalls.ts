import type { ToolCall } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import type { ConfirmationDecision, ConfirmationRequest, PendingConfirmation } from "../hitl/confirmationTypes";
import { prepareArguments } from "../tools/prepareArguments";
import { describeKind } from "../util/describeValue";
import type { RunContext } from "./runLoop";
import { decisionProblem } from "./snapshot";

/** The key of a call in decisions and snapshots: its id, or `#<index>` for a call without one. */
export function callKey(call: ToolCall, index: number): string {
  return call.id ?? `#${index}`;
}

/**
 * Asks each call's confirmation strategy (by tool name, else `"*"`) about the calls that have no
 * decision yet. Strategies see only the model's validated arguments; calls to unknown tools or with
 * invalid arguments are not asked about (they fail anyway). A deferred call is pending.
 */
export async function decideCalls(
  calls: readonly ToolCall[],
  context: Pick<RunContext, "tools" | "confirmationStrategies" | "confirmationContext">,
  known: Readonly<Record<string, ConfirmationDecision>>,
): Promise<{ decisions: Record<string, ConfirmationDecision>; pending: PendingConfirmation[] }> {
  const decisions: Record<string, ConfirmationDecision> = { ...known };
  const pending: PendingConfirmation[] = [];
  const strategies = context.confirmationStrategies;
  if (!strategies) return { decisions, pending };
  for (const [index, call] of calls.entries()) {
    const key = callKey(call, index);
    if (decisions[key]) continue;
    const strategy = strategies[call.toolName] ?? strategies["*"];
    const tool = context.tools.get(call.toolName);
    if (!strategy || !tool) continue;
    const prepared = prepareArguments(tool, call);
    if (!prepared.ok) continue;
    const request: ConfirmationRequest = { toolName: tool.name, description: tool.description, arguments: prepared.args, toolCallId: call.id, context: context.confirmationContext };
    const decision = await strategy.decide(request);
    // A JavaScript strategy can return anything; a typo such as { action: "deny" } must not run the call.
    const problem = decision === "defer" ? undefined : decisionProblem(decision);
    if (problem) {
      throw new ConfigurationError(
        `confirmationStrategies.${strategies[call.toolName] ? call.toolName : "*"}`,
        `The confirmation strategy for tool '${tool.name}' decided ${describeDecision(decision)}, which is not a decision: ${problem}, or "defer" from a strategy that pauses the run.`,
      );
    }
    if (decision === "defer") pending.push({ toolCallId: key, toolName: tool.name, arguments: prepared.args });
    else decisions[key] = decision;
  }
  return { decisions, pending };
}

function describeDecision(value: unknown): string {
  try {
    return JSON.stringify(value) ?? describeKind(value);
  } catch {
    return describeKind(value);
  }
}
