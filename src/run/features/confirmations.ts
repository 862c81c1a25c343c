import { ConfigurationError } from "../../errors";
import type { ConfirmationRequest, ConfirmationStrategy } from "../../hitl/confirmationTypes";
import { parseDecision } from "../../hitl/parseDecision";
import { strategyFor } from "../../hitl/strategyFor";
import { cloneValue } from "../../util/cloneValue";
import { describeKind } from "../../util/describeValue";
import type { RunFeature } from "../runContext";

/**
 * Asks each call's confirmation strategy (by tool name, else `"*"`) before it runs: the strategy
 * confirms, rejects or modifies it, or defers it to a person (the run pauses). A strategy sees its
 * own copy of the validated arguments, so what it does to them changes nothing.
 */
export function confirmationFeature(strategies: ReadonlyMap<string, ConfirmationStrategy>, confirmationContext: unknown): RunFeature {
  return {
    async beforeTool(run, call) {
      const { tool, toolCall } = call;
      const strategy = strategyFor(strategies, toolCall.toolName);
      if (!strategy) return undefined;
      const request: ConfirmationRequest = { toolName: tool.name, description: tool.description, arguments: cloneValue(call.arguments), toolCallId: call.key, context: confirmationContext, signal: run.abort.signal };
      const answer = await strategy.decide(request);
      if (answer === "defer") return { action: "pause" };
      // A JavaScript strategy can return anything; a typo such as { action: "deny" } must not run the call.
      const parsed = parseDecision(answer);
      if ("problem" in parsed) {
        throw new ConfigurationError(
          `confirmationStrategies.${strategies.has(toolCall.toolName) ? toolCall.toolName : "*"}`,
          `The confirmation strategy for tool '${tool.name}' decided ${describeDecision(answer)}, which is not a decision: ${parsed.problem}, or "defer" from a strategy that pauses the run.`,
        );
      }
      return parsed.decision;
    },
  };
}

function describeDecision(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? describeKind(value) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
  } catch {
    return describeKind(value);
  }
}
