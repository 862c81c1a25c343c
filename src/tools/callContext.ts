import type { ToolCall } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { ConfigurationError } from "../errors";
import type { State } from "../state/state";
import type { AbortScope } from "../util/abortScope";
import { isThenable } from "../util/isThenable";
import type { Tool, ToolContext, ToolProgress } from "./tool";
import { toolProgressChunk } from "./toolProgressChunk";

/** Which step of which run the calls belong to: what their idempotency keys are made of. */
export interface StepIdentity {
  /** The run's id (made on first use when the run was given none). */
  readonly runId: () => string;
  /** The step's number in the run (its model call's, from 1). */
  readonly step: number;
  /** Each call's key within the step (`callKeys`): its id, or `#<index>` when the id is missing or repeated. */
  readonly keys: readonly string[];
}

/** Where a call is made: its tool, the call, the step, and what the step was given. */
export interface CallSite {
  readonly tool: Tool;
  readonly call: ToolCall;
  readonly step: StepIdentity;
  readonly index: number;
  readonly options: { readonly state: State; readonly streamingCallback?: StreamingCallback };
}

/** What a tool's function gets besides its arguments; `state` only for a tool declared with usesState. */
export class CallContext implements ToolContext {
  private readonly tool: Tool;
  private readonly runState: State;
  // The call's own signal (with a time limit), else the run's, read only if the tool asks for it.
  private readonly signalSource: AbortSignal | AbortScope;
  readonly toolCall: ToolCall;
  private readonly step: StepIdentity;
  private readonly index: number;
  private streamingCallback: StreamingCallback | undefined;

  constructor(run: CallSite, signalSource: AbortSignal | AbortScope) {
    const { tool, call, options, step, index } = run;
    this.tool = tool;
    this.runState = options.state;
    this.signalSource = signalSource;
    this.toolCall = call;
    this.step = step;
    this.index = index;
    this.streamingCallback = options.streamingCallback;
  }

  // An arrow property, so that `function: async (args, { signal, reportProgress }) => …` keeps its `this`.
  readonly reportProgress = (progress: ToolProgress): void => {
    const callback = this.streamingCallback;
    const chunk = callback && toolProgressChunk(this.index, this.toolCall, progress);
    if (!chunk) return;
    // A progress report comes from inside a running tool (often a notification handler): the
    // callback's failure must neither fail that tool nor surface as an unhandled rejection.
    try {
      const pending: unknown = callback!(chunk);
      if (isThenable(pending)) Promise.resolve(pending).catch(ignore);
    } catch {}
  };

  /** After the call ended, reports are dropped: its `toolResult` chunk is the last word on it. */
  end(): void {
    this.streamingCallback = undefined;
  }

  get idempotencyKey(): string {
    return `${this.step.runId()}:${this.step.step}:${this.step.keys[this.index] ?? this.toolCall.id ?? `#${this.index}`}`;
  }

  get signal(): AbortSignal {
    return this.signalSource instanceof AbortSignal ? this.signalSource : this.signalSource.signal;
  }

  get state(): State {
    if (!this.tool.usesState) {
      throw new ConfigurationError(
        `Tool '${this.tool.name}'`,
        `Tool '${this.tool.name}' read context.state but was not declared with usesState: true; declare it so that its calls are ordered against the other calls of a step.`,
      );
    }
    return this.runState;
  }
}

function ignore(): void {}
