import type { ToolCall } from "../chat/chatMessage";
import { ConfigurationError } from "../errors";
import type { ConfirmationDecision, ConfirmationRequest, ConfirmationStrategy, PendingConfirmation } from "../hitl/confirmationTypes";
import { parseDecision } from "../hitl/parseDecision";
import { prepareArguments } from "../tools/prepareArguments";
import type { Tool } from "../tools/tool";
import type { RunAbort } from "../util/runAbort";
import { cloneValue } from "../util/cloneValue";
import { deepFreeze } from "../util/deepFreeze";
import { describeKind } from "../util/describeValue";

const positionalKey = /^#\d+$/;

/**
 * The key of each call of a step in decisions, pending confirmations and snapshots: the call's id
 * when no other call of the step has it and it does not look like a positional key, else
 * `#<position>`. Keys are unique within a step, so a decision applies to exactly one call.
 */
export function callKeys(calls: readonly ToolCall[]): string[] {
  if (calls.length === 1) {
    const id = calls[0]!.id;
    return [id && !positionalKey.test(id) ? id : "#0"];
  }
  const counts = new Map<string, number>();
  for (const call of calls) if (call.id) counts.set(call.id, (counts.get(call.id) ?? 0) + 1);
  return calls.map((call, i) => (call.id && counts.get(call.id) === 1 && !positionalKey.test(call.id) ? call.id : `#${i}`));
}

/** The strategy for a tool: its own, else the `"*"` one. */
export function strategyFor(strategies: ReadonlyMap<string, ConfirmationStrategy> | undefined, toolName: string): ConfirmationStrategy | undefined {
  return strategies?.get(toolName) ?? strategies?.get("*");
}

/** What deciding a step needs from the run. */
export interface DecideContext {
  readonly tools: ReadonlyMap<string, Tool>;
  readonly confirmationStrategies: ReadonlyMap<string, ConfirmationStrategy> | undefined;
  readonly confirmationContext: unknown;
  readonly abort: RunAbort;
}

/**
 * Asks each call's confirmation strategy (by tool name, else `"*"`) about the calls that have no
 * decision yet. Strategies see only the model's validated arguments, frozen; calls to unknown
 * tools or with invalid arguments are not asked about (they fail anyway). A deferred call is
 * pending. Waiting for a strategy ends as soon as the run's signal aborts.
 */
export async function decideCalls(
  calls: readonly ToolCall[],
  keys: readonly string[],
  context: DecideContext,
  known: ReadonlyMap<string, ConfirmationDecision>,
): Promise<{ decisions: Map<string, ConfirmationDecision>; pending: PendingConfirmation[] }> {
  const decisions = new Map(known);
  const pending: PendingConfirmation[] = [];
  if (!context.confirmationStrategies) return { decisions, pending };
  for (const [index, call] of calls.entries()) {
    const key = keys[index]!;
    if (decisions.has(key)) continue;
    const tool = context.tools.get(call.toolName);
    const strategy = strategyFor(context.confirmationStrategies, call.toolName);
    if (!strategy || !tool) continue;
    const prepared = prepareArguments(tool, call);
    if (!prepared.ok) continue;
    const args = deepFreeze(prepared.args);
    // The strategy gets its own copy: what it does to it changes neither what runs nor what is pending.
    const request: ConfirmationRequest = { toolName: tool.name, description: tool.description, arguments: cloneValue(args), toolCallId: key, context: context.confirmationContext, signal: context.abort.signal };
    const answer = await context.abort.race(Promise.resolve(strategy.decide(request)), () => context.abort.abortError());
    if (answer === "defer") {
      pending.push(Object.freeze({ toolCallId: key, toolName: tool.name, arguments: args }));
      continue;
    }
    // A JavaScript strategy can return anything; a typo such as { action: "deny" } must not run the call.
    const parsed = parseDecision(answer);
    if ("problem" in parsed) {
      throw new ConfigurationError(
        `confirmationStrategies.${context.confirmationStrategies.has(call.toolName) ? call.toolName : "*"}`,
        `The confirmation strategy for tool '${tool.name}' decided ${describeDecision(answer)}, which is not a decision: ${parsed.problem}, or "defer" from a strategy that pauses the run.`,
      );
    }
    decisions.set(key, parsed.decision);
  }
  return { decisions, pending };
}

function describeDecision(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? describeKind(value) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return describeKind(value);
  }
}
