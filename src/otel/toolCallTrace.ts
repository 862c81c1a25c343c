import type { Attributes, Context, Span } from "@opentelemetry/api";
import type { CallTrace } from "../observe/agentTracing";
import type { ToolEndEvent, ToolStartEvent } from "../observe/runEvents";
import type { OtelScope } from "./otelApi";
import { setSpanError } from "./spanError";

/**
 * A tool call's `execute_tool <tool>` span (kind INTERNAL), a child of the run's span; calls that
 * never ran (unknown tool, invalid arguments, a rejection) have one too, with
 * `toolwright.tool.ran` false. A failed call has status ERROR and `error.type`, but no `exception`
 * event: a tool's failure is part of the run's flow (the model is sent its message and carries
 * on), unlike a model call's or a run's, which ends them. With `captureContent`,
 * `gen_ai.tool.call.arguments` (JSON) and, for a call that succeeded, `gen_ai.tool.call.result`
 * (the text the model is sent); both are set at the call's end, redacted of what is hidden then.
 */
export class ToolCallTrace implements CallTrace<ToolEndEvent> {
  readonly #scope: OtelScope;
  readonly #span: Span;
  readonly #parent: Context;

  constructor(scope: OtelScope, parent: Context, event: ToolStartEvent) {
    this.#scope = scope;
    this.#parent = parent;
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": event.toolName,
      "gen_ai.tool.type": "function",
      "gen_ai.conversation.id": event.runId,
      "toolwright.step": event.step,
    };
    if (event.toolCallId !== undefined) attributes["gen_ai.tool.call.id"] = event.toolCallId;
    this.#span = scope.tracer.startSpan(`execute_tool ${event.toolName}`, { kind: scope.api.SpanKind.INTERNAL, startTime: event.startTime, attributes }, parent);
    if (event.toolDescription !== undefined && this.#span.isRecording()) this.#span.setAttribute("gen_ai.tool.description", event.toolDescription);
  }

  within<T>(fn: () => T): T {
    return this.#scope.api.context.with(this.#scope.api.trace.setSpan(this.#parent, this.#span), fn);
  }

  end(event: ToolEndEvent): void {
    const span = this.#span;
    if (span.isRecording()) {
      span.setAttribute("toolwright.tool.ran", event.ran);
      if (event.attempts > 1) span.setAttribute("toolwright.tool.attempts", event.attempts);
      if (event.error !== undefined) setSpanError(this.#scope.api, span, event.error, event.endTime, false);
      if (this.#scope.captureContent) {
        span.setAttribute("gen_ai.tool.call.arguments", JSON.stringify(event.arguments));
        if (event.error === undefined) span.setAttribute("gen_ai.tool.call.result", event.result);
      }
    }
    span.end(event.endTime);
  }
}
