import type { ChatMessage, ToolCall } from "../chat/chatMessage";
import type { ToolSpec } from "../chat/chatGenerator";
import type { ConfirmationDecision } from "../hitl/confirmationTypes";
import type { Tool } from "../tools/tool";
import type { MaybePromise, RunStop } from "./middleware";
import type { RunContext } from "./runContext";

/** The request a model call is about to send; features before the call may replace its parts. */
export interface ModelRequestParts {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
}

/** A tool step about to run: its calls, their keys, and the known tools they name. */
export interface ToolStepCalls {
  readonly calls: readonly ToolCall[];
  readonly keys: readonly string[];
  readonly names: ReadonlySet<string>;
}

/** One call of a step before it runs: a call to a known tool whose arguments are valid. */
export interface CallToDecide {
  readonly toolCall: ToolCall;
  readonly key: string;
  readonly index: number;
  readonly tool: Tool;
  /** The validated arguments, frozen (a modify before this point included). */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** One call of a step after it ended, before its result is committed. */
export interface CallEnded {
  readonly toolCall: ToolCall;
  readonly key: string;
  readonly index: number;
  readonly failed: boolean;
  readonly result: unknown;
}

/** What a feature decides about a call before it runs. */
export type CallVerdict = ConfirmationDecision | { readonly action: "pause" } | { readonly stop: RunStop };

/**
 * A feature of a run, attached at its hook points: breakpoints, middleware, confirmations,
 * checkpoints. Each method is optional; returning nothing goes on unchanged. The run calls them in
 * the order of `RunContext.features`.
 */
export interface RunFeature {
  /** Before each model call: change what is sent, or stop the run. */
  beforeModel?(run: RunContext, request: ModelRequestParts): MaybePromise<Partial<ModelRequestParts> | { readonly stop: RunStop } | void>;
  /** After the model answered: replace or reject the replies, or stop the run. */
  afterModel?(run: RunContext, replies: readonly ChatMessage[]): MaybePromise<{ readonly replies: readonly ChatMessage[] } | { readonly reject: string; readonly by: string } | { readonly stop: RunStop } | void>;
  /** Before a step's calls are decided and run (once per step). */
  beforeTools?(run: RunContext, step: ToolStepCalls): MaybePromise<void>;
  /** Before each call (only those not decided yet): decide it, pause for it, or stop the run. */
  beforeTool?(run: RunContext, call: CallToDecide): MaybePromise<CallVerdict | void>;
  /** After each call, in call order: replace its result or its text, or stop the run after the step. */
  afterTool?(run: RunContext, call: CallEnded): MaybePromise<{ readonly result?: unknown; readonly text?: string } | { readonly stop: RunStop } | void>;
  /** The run moved to a new position (a step's replies recorded, its calls committed, an answer corrected). */
  checkpoint?(run: RunContext): MaybePromise<void>;
}
