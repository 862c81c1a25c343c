import type { ToolSpec } from "../chat/chatGenerator";
import type { HookError } from "../errors";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import type { MediaDescriptor } from "../media/mediaDescriptor";
import type { ObservedMessageJSON } from "./observedMessage";
import type { RunEventBase } from "./runEventBase";
import type { CallTokens, RunUsage } from "./runUsage";
import type { ToolErrorEvent } from "./toolErrorEvent";

export type { RunEventBase };

// Times are milliseconds since the epoch with sub-millisecond precision
// (performance.timeOrigin + performance.now()), as OpenTelemetry takes them.

/** An error as events carry it: its kind and its message, with injected values redacted. */
export interface EventError {
  /** The error's class name, cut to 64 characters (`ChatGeneratorError`, `ToolArgumentsError`, …), or `rejected` for a call a person rejected. */
  readonly type: string;
  readonly message: string;
}

/** A run (or a resumed part of one) starts. */
export interface RunStartEvent extends RunEventBase {
  /** True when the run continues a snapshot. */
  readonly resumed: boolean;
  /** Model calls made before this start (0 for a fresh run). */
  readonly stepCount: number;
  /** The chat generator's `model` and `provider`, when it names them. */
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly startTime: number;
  /** The usage the run starts with: its earlier parts' (before a pause or a breakpoint), zeros for a fresh run. */
  readonly usage: RunUsage;
}

/** A model call starts. `messages` is computed when read, with injected state values redacted. */
export interface ModelStartEvent extends RunEventBase {
  /** The call's number in the run, from 1. */
  readonly step: number;
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly startTime: number;
  readonly generationKwargs: Readonly<Record<string, unknown>> | undefined;
  /** True when the call streams (the run has a streaming callback). */
  readonly stream: boolean;
  /** The host and port of the server the generator calls, when it names one (`serverUrl`). */
  readonly serverAddress: string | undefined;
  readonly serverPort: number | undefined;
  /** The middleware that made the call (a summarizer), by name; undefined for the run's own model call. */
  readonly by: string | undefined;
  /** The tools offered to the model (their schemas leave injected parameters out). */
  readonly tools: readonly ToolSpec[];
  /** The conversation sent, as JSON, redacted; images and files are their descriptors (type, MIME type, bytes, SHA-256 or URL), never their data. */
  readonly messages: readonly ObservedMessageJSON[];
}

/** A model call ended: answered, or failed (`error`). `replies` is computed when read, redacted. */
export interface ModelEndEvent extends RunEventBase {
  readonly step: number;
  readonly model: string | undefined;
  readonly provider: string | undefined;
  /** The middleware that made the call (a summarizer), by name; undefined for the run's own model call. */
  readonly by: string | undefined;
  /** The model that answered, as the response names it. */
  readonly responseModel: string | undefined;
  /** The response's id, when the generator reports one (`meta.id`). */
  readonly responseId: string | undefined;
  readonly startTime: number;
  readonly endTime: number;
  /** The call's token counts, when the provider reported usable ones. */
  readonly usage: CallTokens | undefined;
  /** Milliseconds from the call's start to the first chunk it streamed; undefined when it streamed none. */
  readonly timeToFirstChunk: number | undefined;
  /** Each reply's finish reason (`stop`, `tool_calls`, `length`, …), as reported (each cut to 64 characters). */
  readonly finishReasons: readonly string[];
  /** The provider's warnings about the call (`meta.warnings` of the response: a setting it ignored, a signature it made up); empty when it gave none or the call failed. */
  readonly warnings: readonly string[];
  /** The replies, as JSON, redacted (media as descriptors, as in `messages`); empty when the call failed. */
  readonly replies: readonly ObservedMessageJSON[];
  readonly error: EventError | undefined;
}

/** A tool call starts running. `arguments` is computed when read, redacted. */
export interface ToolStartEvent extends RunEventBase {
  /** The step (model call) whose reply made the call. */
  readonly step: number;
  /** The tool's name (for a tool that does not exist, the name the model sent, cut to 64 characters). */
  readonly toolName: string;
  /** The call's id as the model sent it, cut to 64 characters. */
  readonly toolCallId: string | undefined;
  /** The tool's description (undefined for a tool that does not exist). */
  readonly toolDescription: string | undefined;
  readonly startTime: number;
  /** The validated arguments the call runs with (the model's, or a person's `modify`), without injected parameters. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * A tool call ended, in the order the model made the calls. Calls that never ran (an unknown tool,
 * invalid arguments, a rejection) end too, with `ran: false`. `result` is computed when read.
 */
export interface ToolEndEvent extends RunEventBase {
  readonly step: number;
  readonly toolName: string;
  readonly toolCallId: string | undefined;
  readonly startTime: number;
  readonly endTime: number;
  /** Whether the tool's function was called. */
  readonly ran: boolean;
  /** How many times the tool's function was called: 1, more when a failed call was retried (`retries`), 0 when it never ran. */
  readonly attempts: number;
  /** Why the call failed; its message is the text the model is sent. */
  readonly error: EventError | undefined;
  /** The tool message's text the model is sent, redacted (of what the call itself wrote to state too); for a result with images or files, its text parts joined. */
  readonly result: string;
  /** The descriptors of the result's images and files, in order (type, MIME type, bytes, SHA-256 or URL; never the data), redacted as `result` is; empty for a text result. */
  readonly media: readonly MediaDescriptor[];
  /** The arguments of the start event, redacted as `result` is: of what is hidden when the call ended. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A run (or a part of one) ended: finished, paused, stopped at a breakpoint, or failed. */
export interface RunEndEvent extends RunEventBase {
  readonly startTime: number;
  readonly endTime: number;
  /** Why it ended (`"text"`, an exit tool, `"max_agent_steps"`, `"confirmation_required"`), `"breakpoint"`, or undefined when it failed. */
  readonly exitReason: string | undefined;
  /** Model calls made so far in the run (pauses included). */
  readonly stepCount: number;
  /** The run's usage so far, pauses and resumes included. */
  readonly usage: RunUsage;
  /** The calls waiting for a decision, when the run paused: arguments redacted, ids and names cut to 64 characters (the result has them whole). */
  readonly pendingConfirmations: readonly PendingConfirmation[];
  /** Why the run failed (an abort, a model error, a tool error with raiseOnToolInvocationFailure, …). */
  readonly error: EventError | undefined;
}

/**
 * Callbacks on a run's lifecycle, on the Agent (`new Agent({ hooks })`, every run) and per run
 * (`run({ hooks })`); both are called, the Agent's first. Hooks observe: they are called in order,
 * synchronously, and not awaited; what they get is a copy, so nothing they do changes the run.
 * Content (messages, arguments, results) has the run's injected state values redacted, as in
 * error messages. A hook that throws (or returns a promise that rejects) does not stop the run:
 * its error is given to `onHookError` as a `HookError`, else emitted as a process warning.
 */
export interface AgentHooks {
  /** When a run starts. */
  onRunStart?(event: RunStartEvent): void | Promise<void>;
  /** Before each model call, with what it sends. */
  onModelStart?(event: ModelStartEvent): void | Promise<void>;
  /** After each model call, with its replies, usage or error. */
  onModelEnd?(event: ModelEndEvent): void | Promise<void>;
  /** Before each tool call, with the model's arguments. */
  onToolStart?(event: ToolStartEvent): void | Promise<void>;
  /** After each tool call, with its result or error. */
  onToolEnd?(event: ToolEndEvent): void | Promise<void>;
  /** A tool call failed in a way the developer has to fix: the original error, unredacted, or the injected value that was missing. */
  onToolError?(event: ToolErrorEvent): void | Promise<void>;
  /** When a run ends, with how it ended and its usage. */
  onRunEnd?(event: RunEndEvent): void | Promise<void>;
  /** Receives the errors of these hooks; without it they are emitted with `process.emitWarning`. */
  onHookError?(error: HookError): void;
}

/** The names of the lifecycle callbacks of `AgentHooks`. */
export const hookNames = ["onRunStart", "onModelStart", "onModelEnd", "onToolStart", "onToolEnd", "onToolError", "onRunEnd"] as const;
export type HookName = (typeof hookNames)[number];
