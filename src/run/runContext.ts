import type { ChatGenerator, ToolSpec } from "../chat/chatGenerator";
import type { ChatMessage, ToolCall } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import type { TraceContext } from "../observe/agentTracing";
import type { RunObserver } from "../observe/runObserver";
import type { UsageTally } from "../observe/runUsage";
import type { State } from "../state/state";
import type { Tool } from "../tools/tool";
import type { InvokeToolsOptions, NestedStep } from "../tools/invokeTools";
import type { AbortScope } from "../util/abortScope";
import type { AgentSnapshot, RunPosition, SnapshotConversation } from "../agent/snapshot";
import type { FinalOutput } from "../agent/finalOutput";
import type { MaybePromise, RunStop, StopReason } from "./middleware";

/** Where a run stands, kept in one object the steps move on: what a snapshot is made of. */
export interface RunCursor {
  /** Model calls made so far. */
  stepCount: number;
  /** Times the model-call point was passed. */
  modelVisits: number;
  /** Tool steps that ran each tool (`"*"`: any tool). */
  readonly toolVisits: Map<string, number>;
  /** What the run does next. */
  next: RunPosition["next"];
  /** With `next: "tool"`: the step's replies count, its decisions so far, and what a paused step left. */
  toolStep: RunPosition["toolStep"];
  /** True until the run passes the point a snapshot stopped at (a breakpoint there does not fire again). */
  resuming: boolean;
  /** Invalid final answers sent back in this run so far (a resumed run counts from zero). */
  corrections: number;
  /** A stop asked for after a call of the current tool step: the run stops once the step's results are in. */
  stopAfterStep?: RunStop;
}

/** The executor's options for every tool step of a run, and what its agent tools' calls share. */
export interface RunExecutor {
  readonly options: InvokeToolsOptions;
  readonly nested: NestedStep;
}

/** Everything one run works with; built by `Agent.run`, private to that run. */
export interface RunContext {
  readonly chatGenerator: ChatGenerator;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly state: State;
  readonly exitConditions: ReadonlySet<string>;
  readonly maxAgentSteps: number;
  readonly toolConcurrency: number;
  readonly toolTimeoutMs: number | undefined;
  /** The most characters of one tool message the model is sent (a tool's own `maxResultChars` overrides it). */
  readonly maxToolResultChars: number;
  readonly raiseOnToolInvocationFailure: boolean;
  readonly generationKwargs: Readonly<Record<string, unknown>> | undefined;
  readonly streamingCallback: StreamingCallback | undefined;
  /** The run's abort plumbing: model calls, hooks and tool calls race it. */
  readonly abort: AbortScope;
  /** Signs a snapshot when the Agent has a snapshotKey; returns it as it is otherwise. */
  readonly sealSnapshot: (snapshot: AgentSnapshot) => AgentSnapshot;
  /** The run's id, for idempotency keys: given, or made on first use. */
  readonly runId: () => string;
  readonly agentName: string | undefined;
  /** The run's usage so far (a resumed run's starts from its snapshot's). */
  readonly usage: UsageTally;
  /** Tells hooks and the tracer; undefined when the run has neither. */
  readonly observer: RunObserver | undefined;
  /** The trace context of the snapshot the run continues, passed on to its snapshots. */
  readonly continues: TraceContext | undefined;
  /** The run's `outputSchema`, checked: every model call asks for it, and a text answer must match it. */
  readonly output: FinalOutput | undefined;
  /** How many invalid answers are sent back before the run fails. */
  readonly maxOutputRetries: number;
  /** How many agent runs enclose this one's tool calls: 1 for a top-level run, one more per agent tool. */
  readonly depth: number;
  /** Tells the developer of a fault in their code (see InvokeToolsOptions.reportFault). */
  readonly reportFault: InvokeToolsOptions["reportFault"];
  /** Removes injected state values from error text the model gets (see InvokeToolsOptions.redact). */
  readonly redact: (text: string, values: ReadonlyArray<{ readonly label: string; readonly value: unknown }>) => string;
  /** The features attached at the run's hook points, in order (breakpoints, middleware, confirmations, checkpoints). */
  readonly features: RunFeatures;
  /** Where the run stands. */
  readonly cursor: RunCursor;
  /** How this run's tool steps call the executor: made by the first tool step, reused by the rest. */
  executor?: RunExecutor;
}

/** The features that act at each hook point, in the order they run (empty lists cost nothing). */
export interface RunFeatures {
  readonly beforeModel: readonly RunFeature[];
  readonly afterModel: readonly RunFeature[];
  readonly beforeTools: readonly RunFeature[];
  readonly beforeTool: readonly RunFeature[];
  readonly afterTool: readonly RunFeature[];
  readonly checkpoint: readonly RunFeature[];
}

/** Where the loop starts: a fresh run, or a snapshot's position. */
export type LoopStart = RunPosition & {
  /** True when continuing a snapshot: the point it stopped at is passed without checking the breakpoint. */
  readonly resumed: boolean;
  /** The thread binding of the snapshot continued (a run in a thread): its snapshots carry it on. */
  readonly conversation?: SnapshotConversation;
};

/** How the loop ended. */
export type LoopOutcome =
  | { readonly exitReason: "text"; readonly stepCount: number; readonly output?: unknown }
  | { readonly exitReason: string; readonly stepCount: number }
  | { readonly exitReason: "confirmation_required"; readonly stepCount: number; readonly pending: readonly PendingConfirmation[]; readonly snapshot: AgentSnapshot }
  | { readonly exitReason: StopReason; readonly stepCount: number; readonly stopped: RunStop; readonly snapshot: AgentSnapshot };

/** A fresh tool step's decisions: none (shared: nothing adds to it). */
export const noDecisions: ReadonlyMap<string, ConfirmationDecision> = new Map();
export const noPending: readonly PendingConfirmation[] = Object.freeze([]);

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

/** A check a feature runs beside the model call: cancelled through `signal` when the call or another check ends the step's turn. */
export type AlongsideCheck = (signal: AbortSignal) => Promise<{ readonly stop: RunStop } | { readonly callAgain: true; readonly by: string } | void>;

/** What a feature decides about a call before it runs. */
export type CallVerdict = ConfirmationDecision | { readonly action: "pause" } | { readonly stop: RunStop };

/**
 * A feature of a run, attached at its hook points: breakpoints, middleware, confirmations,
 * checkpoints. Each method is optional; returning nothing goes on unchanged. The run calls them in
 * the order of `RunContext.features`.
 */
export interface RunFeature {
  /** Before each model call: change what is sent, or stop the run. */
  beforeModel?(run: RunContext, request: ModelRequestParts): MaybePromise<(Partial<ModelRequestParts> & { readonly alongside?: AlongsideCheck }) | { readonly stop: RunStop } | void>;
  /** After the model answered: replace or reject the replies, or stop the run. */
  afterModel?(run: RunContext, replies: readonly ChatMessage[]): MaybePromise<{ readonly replies: readonly ChatMessage[] } | { readonly reject: string; readonly by: string } | { readonly stop: RunStop } | void>;
  /** Before a step's calls are decided and run (once per step). */
  beforeTools?(run: RunContext, step: ToolStepCalls): MaybePromise<void>;
  /** Before each call (only those not decided yet): decide it, pause for it, or stop the run. */
  beforeTool?(run: RunContext, call: CallToDecide): MaybePromise<CallVerdict | void>;
  /** After each call, in the order results are merged: replace its result or its text, or stop the run after the step. */
  afterTool?(run: RunContext, call: CallEnded): MaybePromise<{ readonly result?: unknown; readonly text?: string } | { readonly stop: RunStop } | void>;
  /** The run moved to a new position (a step's replies recorded, its calls committed, an answer corrected). */
  checkpoint?(run: RunContext): MaybePromise<void>;
}
