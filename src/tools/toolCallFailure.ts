import type { ToolCall } from "../chat/chatMessage";
import {
  type ArgumentProblem,
  StateMergeError,
  ToolArgumentsError,
  ToolInvocationError,
  ToolNotFoundError,
  ToolResultConversionError,
  type ToolwrightError,
} from "../errors";
import { describeKind } from "../util/describeValue";
import { limits } from "../util/limits";
import { truncateForEcho } from "../util/truncate";
import type { ToolFault } from "./toolFault";

/**
 * A tool call that failed, with the text the model is sent and the error thrown instead when the
 * Agent runs with `raiseOnToolInvocationFailure`.
 */
export interface ToolCallFailure {
  readonly message: string;
  readonly error: ToolwrightError;
  /** False for outcomes a person chose (a rejection): they never make the run throw. */
  readonly raise?: boolean;
  /** Set when the developer has something to fix (a tool that threw, a run without an injected value): reported to `onToolError` and the debug log. */
  readonly fault?: ToolFault;
}

/** A person rejected the call: it did not run. */
export function rejectedByUser(toolName: string, feedback: string | undefined): ToolCallFailure {
  const message = feedback ?? `Tool '${toolName}' was rejected by the user.`;
  return { message, error: new ToolInvocationError(message, toolName, { cause: undefined }), raise: false };
}

/** The model named a tool that is not among the run's tools. */
export function toolNotFound(call: ToolCall, available: readonly string[]): ToolCallFailure {
  const message = `Tool '${truncateForEcho(call.toolName)}' not found. Available tools: ${available.join(", ") || "none"}.`;
  return { message, error: new ToolNotFoundError(message, call.toolName, available) };
}

/** The arguments were not JSON, not an object, or did not match the schema. */
export function invalidArguments(toolName: string, problems: readonly ArgumentProblem[], parameters: readonly string[], byUser = false): ToolCallFailure {
  const first = problems[0];
  const called = byUser ? "was given arguments by the user" : "was called with arguments";
  let message: string;
  if (problems.length === 1 && first?.path === "(root)") {
    message = `Tool '${toolName}' ${called} that ${first.message}. Send one JSON object with the tool's parameters: ${parameters.join(", ") || "none"}.`;
  } else {
    const shown = problems.slice(0, limits.maxListedProblems).map((p) => `${p.path} ${p.message}`);
    if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more problems`);
    const listed = shown.join("; ");
    message = byUser
      ? `Tool '${toolName}' was given invalid arguments by the user: ${listed}. The call did not run.`
      : `Tool '${toolName}' was called with invalid arguments: ${listed}. Call the tool again with corrected arguments.`;
  }
  return { message, error: new ToolArgumentsError(message, toolName, problems), ...(byUser && { raise: false }) };
}

/** The problem for arguments that could not be parsed or are not an object. */
export function argumentsShapeProblem(raw: unknown): ArgumentProblem | undefined {
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      return argumentsShapeProblem(parsed);
    } catch (error) {
      return { path: "(root)", message: `are not valid JSON (${(error as Error).message})` };
    }
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { path: "(root)", message: `are not a JSON object (got ${describeKind(raw)})` };
  return undefined;
}

/** A state value cannot fill a parameter (`problem`: "has no value", "holds a number, but …"); the call did not run. */
export function injectionFailed(toolName: string, stateKey: string, parameter: string, problem: string): ToolCallFailure {
  const fix = problem === "has no value" ? `give '${stateKey}' a value before the tool is called (a run input, or another tool's outputsToState)` : `map a state key of the parameter's type to '${parameter}'`;
  const message = `Tool '${toolName}' did not run: its parameter '${parameter}' is filled from state key '${stateKey}', which ${problem}; ${fix}.`;
  const fault: ToolFault = { kind: "inputsFromState", stateKey, parameter, problem: problem === "has no value" ? "missing" : "wrongType", message };
  return { message, error: new ToolInvocationError(message, toolName, { cause: undefined }), fault };
}

/** The tool threw. `detail` is the tool's message with injected values already redacted; `cause` is what it threw, unredacted, for the developer. */
export function toolThrew(toolName: string, detail: string, cause: unknown): ToolCallFailure {
  const message = `Tool '${toolName}' failed: ${detail}`;
  return { message, error: new ToolInvocationError(message, toolName, { cause }), fault: { kind: "threw", error: cause } };
}

/** The call did not finish within its time limit (its signal was aborted): not a fault, the tool may be right to take long. */
export function toolTimedOut(toolName: string, timeoutMs: number, cause: unknown): ToolCallFailure {
  const message = `Tool '${toolName}' failed: it did not finish within ${timeoutMs} ms.`;
  return { message, error: new ToolInvocationError(message, toolName, { cause }) };
}

/** Merging the tool's output into a state key failed. */
export function mergeFailed(toolName: string, stateKey: string, detail: string, cause: unknown): ToolCallFailure {
  const message = `Tool '${toolName}' ran, but its output could not be merged into state key '${stateKey}': ${detail}`;
  return { message, error: new StateMergeError(message, toolName, stateKey, { cause }), fault: { kind: "outputsToState", error: cause, stateKey } };
}

/** Turning the result into text failed. */
export function conversionFailed(toolName: string, detail: string, cause: unknown): ToolCallFailure {
  const message = `Tool '${toolName}' ran, but its result could not be turned into text: ${detail}`;
  return { message, error: new ToolResultConversionError(message, toolName, { cause }), fault: { kind: "outputsToString", error: cause } };
}
