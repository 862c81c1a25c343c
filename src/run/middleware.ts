import type { ChatMessage, ToolCall } from "../chat/chatMessage";
import type { ChatGenerator, ChatGeneratorResponse, ToolSpec } from "../chat/chatGenerator";
import type { RunUsage } from "../observe/runUsage";
import type { State } from "../state/state";
import type { StateSchema } from "../state/stateSchema";

// The hook types' default state schema is any, as State's is: an untyped middleware (`Middleware`)
// reads any key, and fits every Agent whatever its stateSchema (a typed State is assignable to an
// untyped one, not to State<StateSchema>).
type AnyStateSchema = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- see above

/** A value, or a promise of it: every hook may be async. */
export type MaybePromise<T> = T | Promise<T>;

/** The moments of a run a middleware can act at, in the order a step passes them. */
export type HookPoint = "beforeModel" | "afterModel" | "beforeTool" | "afterTool" | "afterRun";

/**
 * Why a stopped run ended, as its `exitReason`: `"stopped"` (the default), or one of the reasons the
 * built-in guards use — `"budget_exhausted"` (a budget ran out) and `"guardrail_tripped"` (a
 * guardrail refused to go on). Each ends the run the same way: `result.stopped` and a snapshot.
 */
export type StopReason = "stopped" | "budget_exhausted" | "guardrail_tripped";

/** Ends the run: `exitReason: "stopped"` (or `stop.exitReason`), with this reason and a snapshot that continues it. */
export interface StopAction {
  readonly stop: {
    /** The run's exitReason; default `"stopped"`. */
    readonly exitReason?: StopReason;
    /** Why, for people and logs (the result's `stopped.reason`). */
    readonly reason: string;
    /** Facts for the caller (which budget, the figures): plain JSON, kept in the result's `stopped.details`. */
    readonly details?: Readonly<Record<string, unknown>>;
  };
}

/** What every hook is told: the run, the step, the live state, and how far the run has come. */
export interface HookContext<S extends StateSchema = AnyStateSchema> {
  /** The run's id (`run({ runId })`, else a random one). */
  readonly runId: string;
  /** The Agent's `name`, when it has one. */
  readonly agentName: string | undefined;
  /** The step: the number of the model call being made or answered (from 1); a tool call's step is its model call's. */
  readonly step: number;
  /** The run's state. A hook may read it and set keys (merge handlers apply); the conversation is `messages`. */
  readonly state: State<S>;
  /** Tokens, model calls and tool calls so far (a resumed run's include what it used before the pause). */
  readonly usage: RunUsage;
  /** The run's signal: aborted when the caller aborts the run. */
  readonly signal: AbortSignal;
  /**
   * Calls a model as part of the run (a summarizer does): with the run's signal; its tokens and the
   * call count in the run's usage, so budgets see them; its `onModelStart`/`onModelEnd` events and
   * span name this middleware (`by`). Resolves to the generator's response.
   */
  callModel(chatGenerator: ChatGenerator, request: MiddlewareModelRequest): Promise<ChatGeneratorResponse>;
}

/** What a middleware sends when it calls a model (`HookContext.callModel`). */
export interface MiddlewareModelRequest {
  readonly messages: readonly ChatMessage[];
  /** The tools offered; default none. */
  readonly tools?: readonly ToolSpec[];
  readonly generationKwargs?: Readonly<Record<string, unknown>>;
}

/** Before each model call. */
export interface BeforeModelContext<S extends StateSchema = AnyStateSchema> extends HookContext<S> {
  /** The messages about to be sent (the conversation, or what an earlier middleware made of it). */
  readonly messages: readonly ChatMessage[];
  /** The tools about to be offered. */
  readonly tools: readonly ToolSpec[];
}

/**
 * Change what this call sends (the conversation in state stays as it is), run a check beside the
 * call (`alongside`), or stop the run.
 */
export type BeforeModelAction =
  | {
      /** The messages this call sends instead (state keeps the conversation as it is). */
      readonly messages?: readonly ChatMessage[];
      /** The tools this call offers instead. */
      readonly tools?: readonly ToolSpec[];
      /** A check run beside the model call; its verdict can stop the run or call the model again. */
      readonly alongside?: (signal: AbortSignal) => MaybePromise<AlongsideVerdict | void>;
    }
  | StopAction;

/**
 * What a check that ran beside a model call (`BeforeModelAction.alongside`) concludes: nothing (the
 * call's replies are used), stop the run (the call is cancelled through its signal, or its replies
 * are dropped when it already answered; its tokens still count), or call the model again (the same,
 * and the step's model call starts over from `beforeModel`, where the check's middleware changes
 * what is sent).
 */
export type AlongsideVerdict = StopAction | { readonly callAgain: true };

/** After the model answered, before its replies join the conversation. */
export interface AfterModelContext<S extends StateSchema = AnyStateSchema> extends HookContext<S> {
  readonly replies: readonly ChatMessage[];
}

/**
 * Replace the replies, reject them (they are kept, and `reject` goes back to the model: as the
 * answer to each of their tool calls, which do not run, or as a user message; then the model is
 * called again), or stop the run (the replies are kept; their tool calls run when it resumes).
 */
export type AfterModelAction = { readonly replies: readonly ChatMessage[] } | { readonly reject: string } | StopAction;

/** Before each tool call runs, in the order the model made them; only calls to known tools with valid arguments. */
export interface BeforeToolContext<S extends StateSchema = AnyStateSchema> extends HookContext<S> {
  readonly toolCall: ToolCall;
  /** The call's key in decisions and pending confirmations: its id, or `#<index>`. */
  readonly callKey: string;
  /** The model's arguments, validated, as the tool would get them (an earlier middleware's change included); frozen. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * Confirm the call (it runs; later middleware and confirmation strategies are not asked), run it
 * with other arguments (validated again; later middleware see them), reject it (the model gets
 * `feedback`), pause the run for a person (`confirmation_required`: the call is pending with the
 * model's arguments; `agent.run({ snapshot, decisions })` decides it), or stop the run before any
 * call of the step runs.
 */
export type BeforeToolAction =
  | { readonly action: "confirm"; readonly feedback?: string }
  | { readonly action: "modify"; readonly arguments: Readonly<Record<string, unknown>>; readonly feedback?: string }
  | { readonly action: "reject"; readonly feedback?: string }
  | { readonly action: "pause" }
  | StopAction;

/** After each tool call ended, in the order results are merged (call order, batch after batch: docs/agent-and-hooks.md), before its result is merged into state and shown to the model. */
export interface AfterToolContext<S extends StateSchema = AnyStateSchema> extends HookContext<S> {
  readonly toolCall: ToolCall;
  readonly callKey: string;
  /** True when the call failed (unknown tool, invalid arguments, a throw, a timeout, a rejection). */
  readonly failed: boolean;
  /** What the tool returned (what `outputsToState` merges and `outputsToString` renders); undefined for a failed call. */
  readonly result: unknown;
}

/**
 * Replace what a successful call returned (before it is merged and rendered), replace the text the
 * model gets for the call, or stop the run once the step's results are in.
 */
export type AfterToolAction = { readonly result?: unknown; readonly text?: string } | StopAction;

/** When the run returns (not when it throws). */
export interface AfterRunContext<R, S extends StateSchema = AnyStateSchema> extends Omit<HookContext<S>, "step" | "callModel"> {
  readonly result: R;
}

/** Return another result. */
export interface AfterRunAction<R> {
  readonly result: R;
}

/**
 * Code that acts at the run's hook points (`AgentOptions.middleware`, `run({ middleware })`). Each
 * hook is optional and may be async; returning nothing goes on unchanged. Middleware runs in the
 * order given, the Agent's before the run's; the first that stops, rejects or pauses ends that hook
 * point's turn. A hook that throws ends the run with a `MiddlewareError` naming it.
 */
export interface Middleware<S extends StateSchema = AnyStateSchema> {
  /** Names the middleware in errors, stops and events. */
  readonly name: string;
  /** Before each model call: change what the call sends, run a check beside it, or stop the run. */
  beforeModel?(context: BeforeModelContext<S>): MaybePromise<BeforeModelAction | void>;
  /** After the model answered, before its replies join the conversation: replace them, reject them with feedback, or stop the run. */
  afterModel?(context: AfterModelContext<S>): MaybePromise<AfterModelAction | void>;
  /** Before each tool call: confirm it, change its arguments, reject it with feedback for the model, pause the run for a person, or stop the run. */
  beforeTool?(context: BeforeToolContext<S>): MaybePromise<BeforeToolAction | void>;
  /** After each tool call: replace its result or the text the model gets, or stop the run. */
  afterTool?(context: AfterToolContext<S>): MaybePromise<AfterToolAction | void>;
  // The result type is the run's (AgentResult); typed loosely here so that one middleware fits any Agent.
  /** When the run returns (not when it throws): replace its result. */
  afterRun?(context: AfterRunContext<RunResultLike, S>): MaybePromise<AfterRunAction<RunResultLike> | void>;
}

/** The fields of a run's result every middleware can read; `afterRun` returns the same kind of object. */
export interface RunResultLike {
  readonly exitReason: string;
  readonly messages: ChatMessage[];
  readonly lastMessage: ChatMessage;
  readonly stepCount: number;
  readonly usage: RunUsage;
  readonly [key: string]: unknown;
}

/** Why a run stopped (`exitReason: "stopped"`, `"budget_exhausted"` or `"guardrail_tripped"`): which middleware, at which hook point, and its reason. */
export interface RunStop {
  /** The run's exitReason. */
  readonly exitReason: StopReason;
  readonly middleware: string;
  readonly hook: HookPoint;
  readonly reason: string;
  readonly details?: Readonly<Record<string, unknown>>;
}
