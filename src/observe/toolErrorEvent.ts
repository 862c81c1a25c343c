import type { ToolFault } from "../tools/toolFault";
import { isError } from "../util/thrownValue";
import { type ErrorDetails, errorDetails } from "./errorDetails";
import type { RunEventBase } from "./runEventBase";

/** What every `onToolError` event says: which call failed, when, and one sentence for the developer. */
export interface ToolErrorEventBase extends RunEventBase {
  /** The step (model call) whose reply made the call. */
  readonly step: number;
  readonly toolName: string;
  /** The call's id as the model sent it, cut to 64 characters. */
  readonly toolCallId: string | undefined;
  /** When the failure was found (epoch milliseconds). */
  readonly time: number;
  /** One sentence for the developer: the tool, what failed, and the original error's name and message, NOT redacted. */
  readonly message: string;
}

/** The tool's own code failed: its function, or a handler of its outputs. */
export interface ToolCodeErrorEvent extends ToolErrorEventBase {
  /**
   * `threw`: the tool's function threw or rejected; `outputsToState`: its output could not be merged
   * into `stateKey` (a merge handler threw, a value the key's type refuses); `outputsToString`: its
   * result could not be turned into text.
   */
  readonly kind: "threw" | "outputsToState" | "outputsToString";
  /** The original error, with its stack and causes, NOT redacted. */
  readonly error: ErrorDetails;
  /** The state key the output was for (`outputsToState`), else undefined. */
  readonly stateKey: string | undefined;
}

/** The run had no usable value for a parameter the tool gets from state (`inputsFromState`): the tool did not run. */
export interface InjectedValueErrorEvent extends ToolErrorEventBase {
  readonly kind: "inputsFromState";
  /** The state key the parameter is filled from. */
  readonly stateKey: string;
  /** The tool's parameter. */
  readonly parameter: string;
  /** `missing`: a required parameter's key has no value (a run input not given); `wrongType`: the value does not match the parameter's type. */
  readonly problem: "missing" | "wrongType";
}

/**
 * A tool call failed in a way the developer has to fix (a bug in the tool, a run started without a
 * value a tool needs), told to `onToolError` just before the call's `onToolEnd`. Unlike `onToolEnd`
 * (what the model was sent, redacted), it carries the original error unredacted, and no tracer gets it.
 */
export type ToolErrorEvent = ToolCodeErrorEvent | InjectedValueErrorEvent;

/** The `onToolError` event of a fault, frozen. */
export function toolErrorEvent(base: Omit<ToolErrorEventBase, "message">, fault: ToolFault): ToolErrorEvent {
  if (fault.kind === "inputsFromState") {
    const { kind, stateKey, parameter, problem, message } = fault;
    return Object.freeze({ ...base, message, kind, stateKey, parameter, problem });
  }
  const error = errorDetails(fault.error);
  const stateKey = fault.kind === "outputsToState" ? fault.stateKey : undefined;
  return Object.freeze({ ...base, message: faultMessage(base.toolName, fault, error), kind: fault.kind, error, stateKey });
}

/** The developer's sentence for a fault: the model's, with the original error (`error`: its details, when already made) instead of the redacted detail. */
export function faultMessage(toolName: string, fault: ToolFault, error?: ErrorDetails): string {
  if (fault.kind === "inputsFromState") return fault.message;
  const details = error ?? errorDetails(fault.error);
  // A thrown value that is not an Error has no stack: say so, since that is often the bug.
  const detail = sentence(isError(fault.error) ? `${details.name}: ${details.message}` : `${/^[aeiou]/.test(details.name) ? "an" : "a"} ${details.name}, not an Error: ${details.message}`);
  switch (fault.kind) {
    case "threw":
      return `Tool '${toolName}' threw ${detail}`;
    case "outputsToState":
      return `Tool '${toolName}' ran, but its output could not be merged into state key '${fault.stateKey}': ${detail}`;
    case "outputsToString":
      return `Tool '${toolName}' ran, but its result could not be turned into text: ${detail}`;
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
