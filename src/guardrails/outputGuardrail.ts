import type { Middleware } from "../run/middleware";
import { type Guardrail, guardrailMiddlewareName, tripStop, verdictOf } from "./guardrail";

/**
 * A middleware that checks the final answer (`afterModel`, on a reply without tool calls; a typed
 * output's JSON object as `json`): `block` and `retry` reject the reply (it is kept, the reason
 * goes back to the model as a user message, and the model answers again, up to the run's
 * `maxAgentSteps`); a trip ends the run with `exitReason: "guardrail_tripped"`, the answer kept,
 * and resuming asks the model again.
 */
export function outputGuardrail(guardrail: Guardrail): Middleware {
  const name = guardrailMiddlewareName(guardrail, "outputGuardrail", "output-guardrail");
  return {
    name,
    async afterModel(context) {
      if (context.replies.some((reply) => reply.toolCalls.length > 0)) return undefined;
      for (const message of context.replies) {
        if (message.role !== "assistant") continue;
        const text = message.text ?? "";
        const verdict = await verdictOf(guardrail, { point: "output", text, message, json: jsonObject(text) }, context);
        if ("trip" in verdict) return tripStop(guardrail, "output", verdict);
        if ("block" in verdict) return { reject: verdict.block };
        if ("retry" in verdict) return { reject: verdict.retry };
      }
      return undefined;
    },
  };
}

function jsonObject(text: string): Readonly<Record<string, unknown>> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

