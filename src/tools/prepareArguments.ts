import type { ToolCall } from "../chat/chatMessage";
import { type Tool, toolInternals } from "./tool";
import { argumentsShapeProblem, invalidArguments, type ToolCallFailure } from "./toolCallFailure";

/** The model's validated arguments for a call, or why they were refused. */
export type PreparedArguments = { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly failure: ToolCallFailure };

/**
 * Parses (when the provider gave raw text) and validates a call's arguments against the tool's
 * schema. Injected parameters are not in that schema, so a model that sends one is refused like
 * any unknown property: it can never supply or override them.
 */
export function prepareArguments(tool: Tool, call: ToolCall): PreparedArguments {
  const shape = argumentsShapeProblem(call.arguments);
  if (shape) return { ok: false, failure: invalidArguments(tool.name, [shape], parameterNames(tool)) };
  const raw = (typeof call.arguments === "string" ? JSON.parse(call.arguments) : call.arguments) as Record<string, unknown>;
  const outcome = toolInternals(tool).validator.validate(raw);
  if (!outcome.ok) return { ok: false, failure: invalidArguments(tool.name, outcome.problems, parameterNames(tool)) };
  return { ok: true, args: outcome.value };
}

function parameterNames(tool: Tool): string[] {
  return Object.keys(tool.parameters.properties ?? {});
}
