import { nestingDepthExceeds } from "../util/jsonShape";
import { limits } from "../util/limits";

/**
 * Parses a tool call's arguments. Text that is not valid JSON, not an object, or nested deeper than
 * `limits.maxArgumentDepth` is kept as the raw string, so the tool-calling step can tell the model
 * exactly what was wrong (never a silent drop, never a stack overflow). Empty text counts as `{}`
 * (some servers send it for calls without arguments).
 */
export function parseToolArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    const isObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
    return isObject && !nestingDepthExceeds(parsed, limits.maxArgumentDepth) ? (parsed as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}
