import type { ChatGeneratorResponse } from "../chat/chatGenerator";
import type { ChatMessage, ChatMessageJSON } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import type { ToolCallFailure } from "../tools/toolCallFailure";
import { redactValues } from "../util/redact";
import { redactJson } from "../util/redactJson";
import { truncateForEcho } from "../util/truncate";
import type { CallTrace } from "./agentTracing";
import { type Hidden, memo, nameOf, noArguments, noMessages, noStrings, now, withinTrace } from "./eventFields";
import type { EventError, HookName, ModelEndEvent, ToolEndEvent } from "./runEvents";
import type { CallTokens } from "./runUsage";

/** What a call's observation tells: the run's observer (hooks, tracer, error reports). */
export interface CallObserver {
  emit<E>(name: HookName, event: E): void;
  guard<T>(label: string, fn: () => T): T | undefined;
  report(label: string, error: unknown): void;
  errorOf(error: unknown, hidden: Hidden): EventError;
  redactMessages(messages: readonly ChatMessage[], hidden: Hidden): readonly ChatMessageJSON[];
  /** The values content is redacted of now. */
  hidden(): Hidden;
}

/** A model or tool call under observation: its trace, what its start event said, and the values its content is redacted of. */
abstract class CallObservation<TEnd, TStart> {
  constructor(
    protected readonly observer: CallObserver,
    protected readonly trace: CallTrace<TEnd> | undefined,
    protected readonly start: TStart,
    protected readonly hidden: Hidden,
  ) {}

  /** Calls `fn` (the generator's run, the tool's function) with the call's span active. */
  within<T>(fn: () => T): T {
    return withinTrace(this.trace, fn, (error) => this.observer.report("tracing.within", error));
  }
}

/** A model call under observation: `end` or `fail` it once. */
export class ModelCallObservation extends CallObservation<ModelEndEvent, Pick<ModelEndEvent, "runId" | "agentName" | "step" | "model" | "provider" | "startTime">> {
  #firstChunk: number | undefined;

  /** The streaming callback the generator gets: the run's, noting when the first chunk came. */
  timeChunks(callback: StreamingCallback): StreamingCallback {
    return (chunk) => {
      this.#firstChunk ??= now();
      return callback(chunk);
    };
  }

  end(response: ChatGeneratorResponse, replies: readonly ChatMessage[], usage: CallTokens | undefined): void {
    const meta = response.meta;
    const hidden = this.hidden;
    // What the provider names is as hostile as its content: cut, and redacted like it.
    const named = (value: unknown) => {
      const name = nameOf(value);
      return name === undefined || hidden.length === 0 ? name : redactValues(name, hidden);
    };
    const finishReasons: string[] = [];
    for (const reply of replies) if (typeof reply.meta.finishReason === "string") finishReasons.push(named(reply.meta.finishReason) ?? "");
    if (finishReasons.length === 0 && typeof meta?.finishReason === "string") finishReasons.push(named(meta.finishReason) ?? "");
    const warnings = warningsOf(meta?.warnings, hidden);
    this.#finish(named(meta?.model), named(meta?.id), usage, Object.freeze(finishReasons), warnings, memo(() => this.observer.redactMessages(replies, hidden), noMessages), undefined);
  }

  fail(error: unknown): void {
    this.#finish(undefined, undefined, undefined, noStrings, noStrings, () => noMessages, this.observer.errorOf(error, this.hidden));
  }

  #finish(
    responseModel: string | undefined,
    responseId: string | undefined,
    usage: CallTokens | undefined,
    finishReasons: readonly string[],
    warnings: readonly string[],
    replies: () => ModelEndEvent["replies"],
    error: EventError | undefined,
  ): void {
    const { runId, agentName, step, model, provider, startTime } = this.start;
    const event: ModelEndEvent = Object.freeze({
      runId,
      agentName,
      step,
      model,
      provider,
      responseModel,
      responseId,
      startTime,
      endTime: now(),
      timeToFirstChunk: this.#firstChunk === undefined ? undefined : this.#firstChunk - startTime,
      usage,
      finishReasons,
      warnings,
      get replies() {
        return replies();
      },
      error,
    });
    this.observer.emit("onModelEnd", event);
    const trace = this.trace;
    if (trace) this.observer.guard("tracing.endModelCall", () => trace.end(event));
  }
}

// A generator's warnings (hostile input): the non-empty strings among the first 20 entries, each cut to 1,000 characters, redacted like content.
function warningsOf(value: unknown, hidden: Hidden): readonly string[] {
  if (!Array.isArray(value)) return noStrings;
  const warnings: string[] = [];
  for (const item of value.slice(0, 20)) {
    if (typeof item !== "string" || item === "") continue;
    const text = item.length > 1000 ? `${item.slice(0, 1000)}…(${item.length} characters)` : item;
    warnings.push(hidden.length === 0 ? text : redactValues(text, hidden));
  }
  return warnings.length === 0 ? noStrings : Object.freeze(warnings);
}

/** A tool call under observation: `finished` when its function settles, `end` once its outcome is known. */
export class ToolCallObservation extends CallObservation<ToolEndEvent, Pick<ToolEndEvent, "runId" | "agentName" | "step" | "toolName" | "toolCallId" | "startTime">> {
  #endTime: number | undefined;
  #ended = false;

  constructor(
    observer: CallObserver,
    trace: CallTrace<ToolEndEvent> | undefined,
    start: Pick<ToolEndEvent, "runId" | "agentName" | "step" | "toolName" | "toolCallId" | "startTime">,
    hidden: Hidden,
    readonly args: Readonly<Record<string, unknown>>,
  ) {
    super(observer, trace, start, hidden);
  }

  /** The tool's function settled: the call's end time (its outcome is told later, in call order). */
  finished(): void {
    this.#endTime ??= now();
  }

  /**
   * Ends the call with its tool message; `injected` are the values the call got, redacted too, as
   * is what is hidden now: a value the call itself wrote to an injected key is hidden in its own end.
   */
  end(message: ChatMessage, failure: ToolCallFailure | undefined, injected: Hidden, ran = true): void {
    if (this.#ended) return;
    this.#ended = true;
    const now = this.observer.hidden();
    const hidden = injected.length === 0 ? now : [...now, ...injected];
    const text = message.toolCallResult?.result ?? "";
    this.#finish(
      ran,
      failure ? Object.freeze({ type: failure.raise === false ? "rejected" : truncateForEcho(failure.error.name), message: hidden.length === 0 ? failure.message : redactValues(failure.message, hidden) }) : undefined,
      memo(() => (hidden.length === 0 ? text : redactValues(text, hidden)), withheld),
      hidden,
    );
  }

  /** Ends a call the run's end cut short (an abort, another call's error). */
  abandon(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    const hidden = this.observer.hidden();
    this.#finish(true, this.observer.errorOf(error, hidden), () => "", hidden);
  }

  #finish(ran: boolean, error: EventError | undefined, result: () => string, hidden: Hidden): void {
    const { runId, agentName, step, toolName, toolCallId, startTime } = this.start;
    const args = this.args;
    const redactedArgs = memo(() => redactJson(args, hidden), noArguments);
    const event: ToolEndEvent = Object.freeze({
      runId,
      agentName,
      step,
      toolName,
      toolCallId,
      startTime,
      endTime: this.#endTime ?? now(),
      ran,
      error,
      get result() {
        return result();
      },
      get arguments() {
        return redactedArgs();
      },
    });
    this.observer.emit("onToolEnd", event);
    const trace = this.trace;
    if (trace) this.observer.guard("tracing.endToolCall", () => trace.end(event));
  }
}

const withheld = "[content withheld: it could not be redacted]";
