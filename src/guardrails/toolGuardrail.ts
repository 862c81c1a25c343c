import { ConfigurationError } from "../errors";
import type { Middleware } from "../run/middleware";
import { resultPartsText } from "../tools/toolResultContent";
import { describeKind } from "../util/describeValue";
import { type Guardrail, guardrailMiddlewareName, tripStop, verdictOf } from "./guardrail";

/** Where a tool guardrail checks: which tools, and before the call, after it, or both. */
export interface ToolGuardrailOptions {
  /** The tools it checks, by name; default all. */
  readonly tools?: readonly string[];
  /** `"before"` (the arguments), `"after"` (the result) or `"both"` (the default). */
  readonly when?: "before" | "after" | "both";
}

/**
 * A middleware that checks tool calls: before a call (`beforeTool`, the validated arguments)
 * `block` and `retry` reject it (it does not run; the model gets the reason) and a trip ends the
 * run before any call of the step runs; after a successful call (`afterTool`, its result) `block`
 * and `retry` replace the text the model gets with the reason (state still merges the result) and a
 * trip ends the run once the step's results are in. A trip's exit reason is `"guardrail_tripped"`.
 */
export function toolGuardrail(guardrail: Guardrail, options: ToolGuardrailOptions = {}): Middleware {
  const name = guardrailMiddlewareName(guardrail, "toolGuardrail", "tool-guardrail");
  const { tools, when = "both" } = options;
  if (tools !== undefined && (!Array.isArray(tools) || tools.some((t) => typeof t !== "string"))) {
    throw new ConfigurationError("toolGuardrail", `toolGuardrail has tools that is ${describeKind(tools)}, not an array of tool names; pass tools: ["issue_refund"], or leave it out to check every tool.`, { optionPath: ["tools"] });
  }
  if (when !== "before" && when !== "after" && when !== "both") {
    throw new ConfigurationError("toolGuardrail", `toolGuardrail has when ${JSON.stringify(when)}; use "before", "after" or "both".`, { optionPath: ["when"] });
  }
  const checks = (toolName: string) => tools === undefined || tools.includes(toolName);
  const middleware: { -readonly [K in keyof Middleware]: Middleware[K] } = { name };
  if (when !== "after") {
    middleware.beforeTool = async (context) => {
      if (!checks(context.toolCall.toolName)) return undefined;
      const input = { point: "toolCall", text: JSON.stringify(context.arguments), toolCall: context.toolCall, arguments: context.arguments } as const;
      const verdict = await verdictOf(guardrail, input, context);
      if ("trip" in verdict) return tripStop(guardrail, "toolCall", verdict);
      const feedback = "block" in verdict ? verdict.block : "retry" in verdict ? verdict.retry : undefined;
      return feedback === undefined ? undefined : { action: "reject", feedback };
    };
  }
  if (when !== "before") {
    middleware.afterTool = async (context) => {
      if (context.failed || !checks(context.toolCall.toolName)) return undefined;
      const input = { point: "toolResult", text: resultText(context.result), toolCall: context.toolCall, failed: false, result: context.result } as const;
      const verdict = await verdictOf(guardrail, input, context);
      if ("trip" in verdict) return tripStop(guardrail, "toolResult", verdict);
      const text = "block" in verdict ? verdict.block : "retry" in verdict ? verdict.retry : undefined;
      return text === undefined ? undefined : { text };
    };
  }
  return middleware;
}

function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  // A result with images or files is checked by its text parts: never their base64.
  const partsText = resultPartsText(result);
  if (partsText !== undefined) return partsText;
  try {
    return JSON.stringify(result) ?? "";
  } catch {
    // A result JSON cannot write (a cycle, a BigInt) is checked as its plain string form.
    return String(result);
  }
}
