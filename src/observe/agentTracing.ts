import type { ModelEndEvent, ModelStartEvent, RunEndEvent, RunStartEvent, ToolEndEvent, ToolStartEvent } from "./runEvents";

/**
 * A W3C trace context (https://www.w3.org/TR/trace-context/): where a run's spans belong. Snapshots
 * carry it, so a run resumed from one (later, or in another process) continues the same trace.
 */
export interface TraceContext {
  /** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`. */
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** A point in a run recorded on its span: a confirmation, a pause, a breakpoint, a resume, a hook's error. */
export interface TraceEvent {
  readonly name: string;
  readonly time: number;
  readonly attributes: Readonly<Record<string, string | number | boolean | readonly string[]>>;
}

/**
 * Turns runs into traces; an Agent takes one as `tracing`. `openTelemetry()` from
 * `toolwright/otel` is the implementation; the interface is public so that another tracer can be
 * plugged in. A tracer that throws is reported like a hook and never stops a run.
 */
export interface AgentTracing {
  /** Whether the tracer reads content (messages, arguments, results); it gets it redacted. */
  readonly captureContent: boolean;
  /**
   * Starts a run's trace. `continues` is the trace context of the run this one resumes (from its
   * snapshot), to be its parent.
   */
  startRun(event: RunStartEvent, continues: TraceContext | undefined): RunTrace;
}

/** One run's trace (its `invoke_agent` span). */
export interface RunTrace {
  /** The context runs that continue this one belong to; stored in the snapshots it makes. */
  readonly traceContext: TraceContext | undefined;
  /**
   * False when nothing of the run would be recorded (no provider registered, sampled out): a run
   * without hooks then makes no events and no call traces, and does not end this one.
   */
  readonly recording: boolean;
  /** Calls `fn` with the run's span as the active one. */
  within<T>(fn: () => T): T;
  /** Opens the trace of one model call; the returned trace is ended when the call ends. */
  startModelCall(event: ModelStartEvent): CallTrace<ModelEndEvent>;
  /** Opens the trace of one tool call; the returned trace is ended when the call ends. */
  startToolCall(event: ToolStartEvent): CallTrace<ToolEndEvent>;
  /** Records a named moment of the run, with its attributes, on the run's trace. */
  addEvent(event: TraceEvent): void;
  /** Closes the run's trace with how the run ended. */
  end(event: RunEndEvent): void;
}

/** One model or tool call's trace (its `chat` or `execute_tool` span). */
export interface CallTrace<TEnd> {
  /** Calls `fn` with the call's span as the active one (the generator's HTTP request, the tool's own spans nest under it). */
  within<T>(fn: () => T): T;
  /** Closes this call's trace with how the call ended. */
  end(event: TEnd): void;
}
