import type { ChatGenerator } from "../chat/chatGenerator";
import type { ConversationStore } from "../conversations/conversationStore";
import type { ChatMessage } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import type { ConfirmationDecision, ConfirmationStrategies, PendingConfirmation } from "../hitl/confirmationTypes";
import type { StateInitialValues, StateSchema, StateValues } from "../state/stateSchema";
import type { ToolSource } from "../tools/resolveTools";
import type { Breakpoint } from "./breakpoint";
import type { AgentSnapshot } from "./snapshot";
import type { SnapshotKey } from "./snapshotSigner";
import type { AgentTracing } from "../observe/agentTracing";
import type { AgentHooks } from "../observe/runEvents";
import type { RunUsage } from "../observe/runUsage";
import type { OutputOf, OutputSchema } from "./finalOutput";
import type { PromptTemplate } from "../prompt/isPromptTemplate";
import type { Middleware, RunStop, StopReason } from "../run/middleware";

/** What a `systemPrompt` function gets besides the state: the run's identity. */
export interface SystemPromptRun {
  /** The run's id (`run({ runId })`, or a random one). */
  readonly runId: string;
  /** The run's `promptVariables` (empty when it has none). */
  readonly variables: Readonly<Record<string, unknown>>;
}

/**
 * A system prompt made per run from the run's typed state (its initial values, `messages`
 * included), evaluated once at the run's start; a resumed run keeps the prompt its conversation has.
 *
 * @example
 * systemPrompt: ({ customer }) => `You help ${customer?.name ?? "a customer"} (plan: ${customer?.plan ?? "free"}).`
 */
export type SystemPromptFunction<S extends StateSchema> = (state: Readonly<Partial<StateValues<S>>>, run: SystemPromptRun) => string | Promise<string>;

/** Options of `new Agent(...)`; `E` is the tool names among `exitConditions`, inferred when they are literals. */
export interface AgentOptions<S extends StateSchema, E extends string = string, O extends OutputSchema | undefined = undefined> {
  /** The chat model to call: `OpenAIChatGenerator`, `ScriptedChatGenerator` or your own. */
  chatGenerator: ChatGenerator;
  /** Decorated tool objects, `Tool`s and `Toolset`s, in any mix. */
  tools?: readonly ToolSource[];
  /**
   * Prepended to every run's messages as a system message: a string (as it is), a Jinja template
   * (`promptTemplate(...)`, rendered over the run's state and `promptVariables`), or a function of
   * the run's state.
   */
  systemPrompt?: string | PromptTemplate | SystemPromptFunction<S>;
  /**
   * Appended to every run's messages as a user message, made like `systemPrompt` (Haystack's
   * `user_prompt`): a template turns the run's `promptVariables` into the user's request.
   */
  userPrompt?: string | PromptTemplate | SystemPromptFunction<S>;
  /**
   * The final answer's shape (a zod object): the model is asked for JSON matching it (structured
   * output where the provider has it), the answer is validated, and a run that ends with text
   * returns it typed as `result.output`. An invalid answer goes back to the model with the problems.
   */
  outputSchema?: O;
  /** How many times an invalid final answer is sent back for correction before the run fails with `OutputValidationError`. Default 2. */
  maxOutputRetries?: number;
  /** The run's typed State: key → `{ type: <zod>, handler? }`. `messages` is always there. */
  stateSchema?: S;
  /** What ends a run: `"text"` (a reply without tool calls) and tool names. Default `["text"]`. */
  exitConditions?: readonly ("text" | E)[];
  /** The most model calls one run makes. Default 100. */
  maxAgentSteps?: number;
  /** How many tool calls of one step run at once. Default 4. */
  toolConcurrency?: number;
  /** A tool call that takes longer fails (the model gets a timeout error) and its signal aborts. Default: no limit. */
  toolTimeoutMs?: number;
  /** The most characters of one tool result the model is sent: a longer one is cut, with a notice naming the tool and both sizes (state still gets the whole value). A tool's `maxResultChars` overrides it. Default 100,000. */
  maxToolResultChars?: number;
  /** Throw instead of sending the model an error message when a tool call fails. Default false. */
  raiseOnToolInvocationFailure?: boolean;
  /** Receives text deltas, tool-call deltas, tool results and finish chunks. */
  streamingCallback?: StreamingCallback;
  /** Tool name (or `"*"`) → how its calls are confirmed by a person before they run (README "Human in the loop"). */
  confirmationStrategies?: ConfirmationStrategies;
  /**
   * Signs every snapshot this Agent makes (HMAC-SHA256) and resumes only snapshots with a valid
   * signature, so a service may hand snapshots to clients. A secret of at least 32 bytes; an array
   * rotates keys (the first signs, any verifies).
   */
  snapshotKey?: SnapshotKey;
  /** Names the Agent in traces (`gen_ai.agent.name`, span `invoke_agent <name>`) and lifecycle events. 1–200 characters. */
  name?: string;
  /** Lifecycle callbacks for every run (model and tool calls starting and ending, the run's end); see `AgentHooks`. */
  hooks?: AgentHooks;
  /** Turns every run into a trace: `openTelemetry()` from `toolwright/otel`. Default: no tracing, at no cost. */
  tracing?: AgentTracing;
  /**
   * Code that acts at the run's hook points (before and after the model call, before and after each
   * tool call, at the end): guards, budgets, approvals. Runs in order, before a run's own middleware.
   * Code, never part of a definition. See `Middleware`.
   */
  middleware?: readonly Middleware<S>[];
}

/** The `conversation` option of `agent.run`: the thread a run reads its history from and appends to. */
export interface ConversationRunOption {
  /** Where the thread is kept (`toolwright/conversations`: PGlite, Postgres, Redis or memory). */
  readonly store: ConversationStore;
  /** The thread's id (1 to 256 printable characters). */
  readonly threadId: string;
  /**
   * State keys saved with the thread when a run ends and given to the next run as initial values
   * (for example `summarize`'s `"conversation_summary"`, so a long thread is not summarized anew
   * each turn). Their values must be JSON.
   */
  readonly persistState?: readonly string[];
  /**
   * When another run appended to the thread after this one loaded it: `"error"` (default) rejects
   * with `ConversationAppendError` (`conflict: true`, the result and messages on it, nothing
   * appended); `"append"` appends this run's messages after the other run's.
   */
  readonly onConflict?: "error" | "append";
}

/** What a run in a thread reports about the thread (`result.conversation`). */
export interface ConversationRunInfo {
  readonly threadId: string;
  /** The thread's version after this run (unchanged for a paused run, or a retried append). */
  readonly version: number;
  /** How many messages this call appended (0 for a paused run, or for a retry the store recognised). */
  readonly appended: number;
}

/** Per-run options of `agent.run(...)`; every state key may also be given, as its initial value. */
export interface AgentRunOptions {
  /** The conversation so far (the system prompt is prepended). */
  messages?: ChatMessage[];
  /** Replaces the Agent's system prompt for this run (a string, a template, or a function of the run's state). */
  systemPrompt?: string | PromptTemplate | ((state: never, run: SystemPromptRun) => string | Promise<string>);
  /**
   * Values the prompt templates read besides the state keys (`{{ query }}`), and prompt functions
   * get as `run.variables`. A template variable that is neither a state key with a value nor given
   * here fails the run before the first model call (`PromptTemplateError`).
   */
  promptVariables?: Readonly<Record<string, unknown>>;
  /** Replaces the Agent's `outputSchema` for this run. */
  outputSchema?: OutputSchema;
  /** Tool names to select from the Agent's tools, or tools to use instead, for this run. */
  tools?: ReadonlyArray<string | ToolSource>;
  /** Provider options for every model call of this run (temperature, max tokens, …). */
  generationKwargs?: Record<string, unknown>;
  /** Replaces the Agent's streaming callback for this run. */
  streamingCallback?: StreamingCallback;
  /** Aborts the run: the model call and running tools get the signal; `run` rejects with an AbortError. */
  signal?: AbortSignal;
  /** Continues a run from a snapshot (a breakpoint, a deferred confirmation or a failure made it). */
  snapshot?: AgentSnapshot;
  /**
   * With `snapshot`: state values set before the run continues, by key, each merged and checked as a
   * tool's output is (its key's merge handler, then its type): a person's decision after a stop, or
   * raised budget limits (`budget({ limitsStateKey })`). `messages` is the snapshot's conversation and
   * cannot be set here.
   */
  stateUpdates?: Readonly<Record<string, unknown>>;
  /** With `snapshot`: the decisions on the pending calls, by `toolCallId` (an object, or a Map). */
  decisions?: Readonly<Record<string, ConfirmationDecision>> | ReadonlyMap<string, ConfirmationDecision>;
  /** Stop before this point, rejecting with a `BreakpointError` that carries a snapshot. */
  breakpoint?: Breakpoint;
  /** Given to confirmation strategies unchanged (a socket, a user id, …). */
  confirmationContext?: unknown;
  /**
   * Names the run: tools see `context.idempotencyKey` built from it, the step and the call, so a
   * step run again (after a crash, from a checkpoint) gives its calls the same keys. 1–200 characters;
   * default: a random id per run.
   */
  runId?: string;
  /**
   * Called with a snapshot after every completed step: after the model's reply (the snapshot resumes
   * at its tool calls) and after the tool calls (it resumes at the next model call). The run waits for
   * it; a run resumed from the latest one never repeats a completed step. A throw fails the run.
   */
  onCheckpoint?: (snapshot: AgentSnapshot) => void | Promise<void>;
  /** Lifecycle callbacks for this run, called after the Agent's own `hooks`. */
  hooks?: AgentHooks;
  /** Middleware for this run, after the Agent's own `middleware`. */
  middleware?: readonly Middleware[];
  /**
   * Runs in a persisted thread: the thread's history goes before `messages`, and the run's new
   * messages are appended once it ends (a paused run appends when it is resumed to its end). Give
   * a stable `runId` (a request id) so that a retried request appends once.
   */
  conversation?: ConversationRunOption;
}

/** The input of `agent.run(...)`: run options plus initial state values; `O` is the run's output schema. */
export type AgentRunInput<S extends StateSchema, O extends OutputSchema | undefined = OutputSchema | undefined> = Omit<AgentRunOptions, "systemPrompt" | "outputSchema"> & {
  /** Replaces the Agent's system prompt for this run (a string, a template, or a function of the run's state). */
  systemPrompt?: string | PromptTemplate | SystemPromptFunction<S>;
  /** Replaces the Agent's `outputSchema` for this run: `result.output` is typed from it. */
  outputSchema?: O;
} & Omit<StateInitialValues<S>, keyof AgentRunOptions>;

/**
 * Why a run ended: `"text"`, `"max_agent_steps"`, `"confirmation_required"`, or the name of an
 * exit-condition tool (`E`: the tool names of the Agent's `exitConditions` when they are literals).
 */
export type ExitReason<E extends string = string> = "text" | "max_agent_steps" | "confirmation_required" | StopReason | E;

/** What every run result has: the conversation, how many steps it took, and every state key that has a value. */
export type AgentResultBase<S extends StateSchema> = Partial<Omit<StateValues<S>, "messages">> & {
  /** Every message of the run, the input and the system prompt included. */
  messages: ChatMessage[];
  /** The last message of the run. */
  lastMessage: ChatMessage;
  /** How many model calls the run made. */
  stepCount: number;
  /** Tokens, model calls and tool calls of the whole run (a resumed run includes what it used before the pause). */
  usage: RunUsage;
  /** With the `conversation` run option: the thread, its version now, and how many messages this run appended. */
  conversation?: ConversationRunInfo;
};

/**
 * What `agent.run` returns. A union on `exitReason`: after checking
 * `result.exitReason === "confirmation_required"`, `pendingConfirmations` and `snapshot` are there.
 */
export type AgentResult<S extends StateSchema, E extends string = string, O extends OutputSchema | undefined = undefined> =
  | (AgentResultBase<S> & {
      exitReason: "text";
      /** The final answer, parsed and validated against the run's `outputSchema` (undefined without one). */
      output: OutputOf<O>;
      pendingConfirmations?: undefined;
      stopped?: undefined;
      snapshot?: undefined;
    })
  | (AgentResultBase<S> & { exitReason: Exclude<ExitReason<E>, "confirmation_required" | "text" | StopReason>; output?: undefined; pendingConfirmations?: undefined; stopped?: undefined; snapshot?: undefined })
  | StoppedResult<S, "stopped">
  | StoppedResult<S, "budget_exhausted">
  | StoppedResult<S, "guardrail_tripped">
  | (AgentResultBase<S> & {
      exitReason: "confirmation_required";
      output?: undefined;
      stopped?: undefined;
      /** The calls waiting for a decision. */
      pendingConfirmations: PendingConfirmation[];
      /** Continue with `agent.run({ snapshot, decisions })`. */
      snapshot: AgentSnapshot;
    });

/** A run a middleware stopped (one variant per exit reason, so that checking `exitReason` narrows). */
export type StoppedResult<S extends StateSchema, R extends StopReason> = AgentResultBase<S> & {
  exitReason: R;
  output?: undefined;
  pendingConfirmations?: undefined;
  /** Which middleware stopped the run, at which hook point, why (and its details). */
  stopped: RunStop;
  /** Continue with `agent.run({ snapshot })` (the middleware that stopped it runs again there). */
  snapshot: AgentSnapshot;
};

/** Option names of `run` (besides state keys). */
export const runOptionKeys: ReadonlySet<string> = new Set([
  "messages",
  "systemPrompt",
  "tools",
  "generationKwargs",
  "streamingCallback",
  "signal",
  "snapshot",
  "breakpoint",
  "decisions",
  "confirmationContext",
  "runId",
  "onCheckpoint",
  "hooks",
  "middleware",
  "outputSchema",
  "promptVariables",
  "stateUpdates",
  "conversation",
]);

/** Names the Agent uses for run options and results; they cannot be state keys (`messages` is one). */
export const reservedStateKeys: readonly string[] = [
  "lastMessage",
  "exitReason",
  "stepCount",
  "usage",
  ...[...runOptionKeys].filter((key) => key !== "messages"),
  "pendingConfirmations",
  "stopped",
  "output",
];
