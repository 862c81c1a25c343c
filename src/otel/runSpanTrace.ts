import type { Attributes, Context, Link, Span } from "@opentelemetry/api";
import type { CallTrace, RunTrace, TraceContext, TraceEvent } from "../observe/agentTracing";
import type { ModelEndEvent, ModelStartEvent, RunEndEvent, RunStartEvent, ToolEndEvent, ToolStartEvent } from "../observe/runEvents";
import { ModelCallTrace, otherProvider } from "./modelCallTrace";
import type { OtelScope } from "./otelApi";
import { setSpanError } from "./spanError";
import { ToolCallTrace } from "./toolCallTrace";
import { formatTraceContext, parseTraceContext } from "./w3cTraceContext";

/**
 * A run's `invoke_agent <agent>` span (kind INTERNAL). Its parent is the run it continues (the
 * snapshot's trace context, a remote parent), with the span active when it started (the request
 * that resumed it) as a link; else the active span. Model and tool call spans are its children
 * through the context it was started in, never through whatever is active when they start.
 *
 * At its end it carries the run's cumulative usage as `toolwright.usage.*`. Those totals span the
 * run's pauses and resumes, so each resumed part repeats what came before; its `gen_ai.usage.*`
 * are the tokens of this part alone (sub-agents' included), so the run spans of one run's parts
 * add up to the run. A breakpoint or a pause for confirmation is an exit reason, not an error.
 */
export class RunSpanTrace implements RunTrace {
  readonly #scope: OtelScope;
  readonly #span: Span;
  // The context the run's own spans (and `within`) nest in: its parent's, with the run's span set.
  readonly #context: Context;
  #traceContext: TraceContext | undefined | null = null;
  readonly #startUsage: Pick<RunStartEvent["usage"], "inputTokens" | "outputTokens">;

  constructor(scope: OtelScope, event: RunStartEvent, continues: TraceContext | undefined) {
    const { api, tracer } = scope;
    this.#scope = scope;
    // A tracer driven by hand (or by a build from before the field) may leave it out: a fresh run.
    this.#startUsage = event.usage ?? { inputTokens: 0, outputTokens: 0 };
    const active = api.context.active();
    const remote = continues === undefined ? undefined : parseTraceContext(api, continues);
    let parent = active;
    let links: Link[] | undefined;
    if (remote !== undefined) {
      parent = api.trace.setSpanContext(active, remote);
      const activeSpan = api.trace.getSpanContext(active);
      if (activeSpan !== undefined && api.isSpanContextValid(activeSpan)) links = [{ context: activeSpan }];
    }
    const attributes: Attributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": event.provider ?? otherProvider,
      "gen_ai.conversation.id": event.runId,
      "toolwright.run.id": event.runId,
      "toolwright.run.resumed": event.resumed,
      "toolwright.run.start_step": event.stepCount,
    };
    if (event.agentName !== undefined) attributes["gen_ai.agent.name"] = event.agentName;
    if (event.model !== undefined) attributes["gen_ai.request.model"] = event.model;
    const name = event.agentName === undefined ? "invoke_agent" : `invoke_agent ${event.agentName}`;
    this.#span = tracer.startSpan(name, { kind: api.SpanKind.INTERNAL, startTime: event.startTime, attributes, links }, parent);
    this.#context = api.trace.setSpan(parent, this.#span);
  }

  get traceContext(): TraceContext | undefined {
    if (this.#traceContext === null) this.#traceContext = formatTraceContext(this.#scope.api, this.#span.spanContext());
    return this.#traceContext;
  }

  get recording(): boolean {
    return this.#span.isRecording();
  }

  within<T>(fn: () => T): T {
    return this.#scope.api.context.with(this.#context, fn);
  }

  startModelCall(event: ModelStartEvent): CallTrace<ModelEndEvent> {
    return new ModelCallTrace(this.#scope, this.#context, event);
  }

  startToolCall(event: ToolStartEvent): CallTrace<ToolEndEvent> {
    return new ToolCallTrace(this.#scope, this.#context, event);
  }

  addEvent(event: TraceEvent): void {
    // The SDK copies the attributes; its type only wants mutable arrays.
    this.#span.addEvent(event.name, event.attributes as Attributes, event.time);
  }

  end(event: RunEndEvent): void {
    const span = this.#span;
    if (span.isRecording()) {
      if (event.exitReason !== undefined) span.setAttribute("toolwright.exit_reason", event.exitReason);
      const { usage } = event;
      span.setAttributes({
        "toolwright.step_count": event.stepCount,
        "toolwright.usage.input_tokens": usage.inputTokens,
        "toolwright.usage.output_tokens": usage.outputTokens,
        "toolwright.usage.total_tokens": usage.totalTokens,
        "toolwright.usage.model_calls": usage.modelCalls,
        "toolwright.usage.tool_calls": usage.toolCalls,
        "toolwright.usage.failed_tool_calls": usage.failedToolCalls,
        "gen_ai.usage.input_tokens": Math.max(0, usage.inputTokens - this.#startUsage.inputTokens),
        "gen_ai.usage.output_tokens": Math.max(0, usage.outputTokens - this.#startUsage.outputTokens),
      });
      if (event.error !== undefined) setSpanError(this.#scope.api, span, event.error, event.endTime, true);
    }
    span.end(event.endTime);
  }
}
