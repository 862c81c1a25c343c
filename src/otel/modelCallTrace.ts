import type { Attributes, Context, Span } from "@opentelemetry/api";
import type { CallTrace } from "../observe/agentTracing";
import type { ModelEndEvent, ModelStartEvent } from "../observe/runEvents";
import { inputContent, outputContent, toolDefinitions } from "./genAiContent";
import type { OtelScope } from "./otelApi";
import { setRequestAttributes } from "./requestAttributes";
import { setSpanError } from "./spanError";

/** `gen_ai.provider.name` of a generator that names no provider (the conventions' value for one outside their list). */
export const otherProvider = "_OTHER";

/**
 * A model call's `chat <model>` span (kind CLIENT), a child of the run's span. The attributes a
 * sampler may read are given at start; the rest (generationKwargs, content) only when the span
 * records. Content (`gen_ai.input.messages`, `gen_ai.system_instructions`, `gen_ai.tool.definitions`,
 * `gen_ai.output.messages`) is read from the event only with `captureContent`. A failed call has
 * status ERROR, `error.type` and an `exception` event at its end time. A streamed call has
 * `gen_ai.response.time_to_first_chunk` (seconds) when a chunk came.
 */
export class ModelCallTrace implements CallTrace<ModelEndEvent> {
  readonly #scope: OtelScope;
  readonly #span: Span;
  readonly #parent: Context;

  constructor(scope: OtelScope, parent: Context, event: ModelStartEvent) {
    this.#scope = scope;
    this.#parent = parent;
    const attributes: Attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": event.provider ?? otherProvider,
      "gen_ai.conversation.id": event.runId,
      "gen_ai.request.stream": event.stream,
      "toolwright.step": event.step,
    };
    if (event.model !== undefined) attributes["gen_ai.request.model"] = event.model;
    if (event.by !== undefined) attributes["toolwright.model_call.by"] = event.by;
    if (event.serverAddress !== undefined) attributes["server.address"] = event.serverAddress;
    if (event.serverPort !== undefined) attributes["server.port"] = event.serverPort;
    const name = event.model === undefined ? "chat" : `chat ${event.model}`;
    this.#span = scope.tracer.startSpan(name, { kind: scope.api.SpanKind.CLIENT, startTime: event.startTime, attributes }, parent);
    if (!this.#span.isRecording()) return;
    if (event.generationKwargs !== undefined) setRequestAttributes(this.#span, event.generationKwargs);
    if (!scope.captureContent) return;
    const { input, systemInstructions } = inputContent(event.messages);
    this.#span.setAttribute("gen_ai.input.messages", input);
    if (systemInstructions !== undefined) this.#span.setAttribute("gen_ai.system_instructions", systemInstructions);
    const tools = event.tools;
    if (tools.length > 0) this.#span.setAttribute("gen_ai.tool.definitions", toolDefinitions(tools));
  }

  within<T>(fn: () => T): T {
    return this.#scope.api.context.with(this.#scope.api.trace.setSpan(this.#parent, this.#span), fn);
  }

  end(event: ModelEndEvent): void {
    const span = this.#span;
    if (span.isRecording()) {
      if (event.responseModel !== undefined) span.setAttribute("gen_ai.response.model", event.responseModel);
      if (event.responseId !== undefined) span.setAttribute("gen_ai.response.id", event.responseId);
      if (event.timeToFirstChunk !== undefined) span.setAttribute("gen_ai.response.time_to_first_chunk", event.timeToFirstChunk / 1000);
      if (event.finishReasons.length > 0) span.setAttribute("gen_ai.response.finish_reasons", [...event.finishReasons]);
      if (event.usage?.inputTokens !== undefined) span.setAttribute("gen_ai.usage.input_tokens", event.usage.inputTokens);
      if (event.usage?.outputTokens !== undefined) span.setAttribute("gen_ai.usage.output_tokens", event.usage.outputTokens);
      if (event.error !== undefined) setSpanError(this.#scope.api, span, event.error, event.endTime, true);
      else if (this.#scope.captureContent) span.setAttribute("gen_ai.output.messages", outputContent(event.replies, event.finishReasons));
    }
    span.end(event.endTime);
  }
}
