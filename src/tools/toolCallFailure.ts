import type { ToolCall } from "../chat/chatMessage";
import {
  type ArgumentProblem,
  StateMergeError,
  StateTypeError,
  ToolArgumentsError,
  ToolInvocationError,
  ToolNotFoundError,
  ToolResultConversionError,
  type ToolwrightError,
} from "../errors";
import type { MergeFailure } from "../state/mergeToolOutputs";
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
  /**
   * False for outcomes a person chose (a rejection): they never make the run throw. True for a
   * developer's bug that must reach the developer (a merge handler that threw): an Agent run throws
   * even without `raiseOnToolInvocationFailure`, as Haystack main does (`_merge_tool_outputs_into_state`);
   * ToolRunner, which answers every failure, does not (`InvokeToolsOptions.raiseHandlerFaults`).
   */
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

/** The model's arguments were not JSON, not an object, or did not match the schema. */
export function invalidArguments(toolName: string, problems: readonly ArgumentProblem[], parameters: readonly string[]): ToolCallFailure {
  const root = rootProblem(problems);
  const message = root
    ? `Tool '${toolName}' was called with arguments that ${root.message}. ${sendOneObject(parameters)}`
    : `Tool '${toolName}' was called with invalid arguments: ${listProblems(problems)}. Call the tool again with corrected arguments.`;
  return { message, error: new ToolArgumentsError(message, toolName, problems) };
}

/** The arguments a person gave (a modify decision) did not match the schema: the call did not run, and the run never throws for it. */
export function invalidUserArguments(toolName: string, problems: readonly ArgumentProblem[], parameters: readonly string[]): ToolCallFailure {
  const root = rootProblem(problems);
  const message = root
    ? `Tool '${toolName}' was given arguments by the user that ${root.message}. ${sendOneObject(parameters)}`
    : `Tool '${toolName}' was given invalid arguments by the user: ${listProblems(problems)}. The call did not run.`;
  return { message, error: new ToolArgumentsError(message, toolName, problems), raise: false };
}

// The one problem of arguments that are not a JSON object at all, else undefined.
function rootProblem(problems: readonly ArgumentProblem[]): ArgumentProblem | undefined {
  const first = problems[0];
  return problems.length === 1 && first?.path === "(root)" ? first : undefined;
}

function sendOneObject(parameters: readonly string[]): string {
  return `Send one JSON object with the tool's parameters: ${parameters.join(", ") || "none"}.`;
}

function listProblems(problems: readonly ArgumentProblem[]): string {
  const shown = problems.slice(0, limits.maxListedProblems).map((p) => `${p.path} ${p.message}`);
  if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more problems`);
  return shown.join("; ");
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

/** A state value that cannot fill a tool's parameter (its call does not run). */
export interface FailedInjection {
  readonly toolName: string;
  /** The state key the parameter is filled from (`inputsFromState`). */
  readonly stateKey: string;
  readonly parameter: string;
  /** What is wrong with the value: "has no value", "holds a number, but …". */
  readonly problem: string;
}

/** A state value cannot fill a parameter; the call did not run. */
export function injectionFailed({ toolName, stateKey, parameter, problem }: FailedInjection): ToolCallFailure {
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

/** Merging the tool's output into a state key failed. `detail` is the merge error's message with injected values already redacted. */
export function mergeFailed(toolName: string, failure: MergeFailure, detail: string): ToolCallFailure {
  const { stateKey, error: cause } = failure;
  const message = `Tool '${toolName}' ran, but its output could not be merged into state key '${stateKey}': ${detail}`;
  // A handler that threw is the developer's bug and fails the run (Haystack main raises for it whatever
  // raise_on_tool_invocation_failure says); a value its key's type rejects (a check Haystack lacks) goes to the model.
  const handlerThrew = !(cause instanceof StateTypeError);
  return { message, error: new StateMergeError(message, toolName, stateKey, { cause }), fault: { kind: "outputsToState", error: cause, stateKey }, ...(handlerThrew && { raise: true }) };
}

/** Turning the result into text failed. */
export function conversionFailed(toolName: string, detail: string, cause: unknown): ToolCallFailure {
  const message = `Tool '${toolName}' ran, but its result could not be turned into text: ${detail}`;
  return { message, error: new ToolResultConversionError(message, toolName, { cause }), fault: { kind: "outputsToString", error: cause } };
}
