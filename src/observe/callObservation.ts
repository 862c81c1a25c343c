import type { ChatGeneratorResponse } from "../chat/chatGenerator";
import type { ChatMessage } from "../chat/chatMessage";
import type { MediaDescriptor } from "../media/mediaDescriptor";
import type { StreamingCallback } from "../chat/streaming";
import type { ToolCallFailure } from "../tools/toolCallFailure";
import { redactValues } from "../util/redact";
import { redactJson } from "../util/redactJson";
import { truncateForEcho } from "../util/truncate";
import type { CallTrace } from "./agentTracing";
import { type Hidden, memo, nameOf, noArguments, noMessages, noStrings, now, withinTrace } from "./eventFields";
import { type ObservedMessageJSON, resultMedia } from "./observedMessage";
import type { EventError, HookName, ModelEndEvent, ToolEndEvent } from "./runEvents";
import type { CallTokens } from "./runUsage";

/** What a call's observation tells: the run's observer (hooks, tracer, error reports). */
export interface CallObserver {
  emit<E>(name: HookName, event: E): void;
  guard<T>(label: string, fn: () => T): T | undefined;
  report(label: string, error: unknown): void;
  errorOf(error: unknown, hidden: Hidden): EventError;
  redactMessages(messages: readonly ChatMessage[], hidden: Hidden): readonly ObservedMessageJSON[];
  /** The values content is redacted of now. */
  hidden(): Hidden;
}

/** What a call's observation starts with: the fields of its start event that its end event repeats, and the values its content is redacted of. */
export type CallStart<TFields> = TFields & {
  /** The values content is redacted of when the call starts. */
  readonly hidden: Hidden;
};

/** A model or tool call under observation: its trace, and what it started with. */
abstract class CallObservation<TEnd, TStart extends CallStart<object>> {
  constructor(
    protected readonly observer: CallObserver,
    protected readonly trace: CallTrace<TEnd> | undefined,
    protected readonly start: TStart,
  ) {}

  /** Calls `fn` (the generator's run, the tool's function) with the call's span active. */
  within<T>(fn: () => T): T {
    return withinTrace(this.trace, fn, (error) => this.observer.report("tracing.within", error));
  }
}

/** A model call under observation: `end` or `fail` it once. */
export class ModelCallObservation extends CallObservation<ModelEndEvent, ModelCallStart> {
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
    const { hidden } = this.start;
    // What the provider names is as hostile as its content: cut, and redacted like it.
    const named = (value: unknown) => {
      const name = nameOf(value);
      return name === undefined || hidden.length === 0 ? name : redactValues(name, hidden);
    };
    const finishReasons: string[] = [];
    for (const reply of replies) if (typeof reply.meta.finishReason === "string") finishReasons.push(named(reply.meta.finishReason) ?? "");
    if (finishReasons.length === 0 && typeof meta?.finishReason === "string") finishReasons.push(named(meta.finishReason) ?? "");
    const warnings = warningsOf(meta?.warnings, hidden);
    this.#finish({
      responseModel: named(meta?.model),
      responseId: named(meta?.id),
      usage,
      finishReasons: Object.freeze(finishReasons),
      warnings,
      replies: memo(() => this.observer.redactMessages(replies, hidden), noMessages),
      error: undefined,
    });
  }

  fail(error: unknown): void {
    this.#finish({ responseModel: undefined, responseId: undefined, usage: undefined, finishReasons: noStrings, warnings: noStrings, replies: () => noMessages, error: this.observer.errorOf(error, this.start.hidden) });
  }

  #finish(end: ModelCallEnd): void {
    const { responseModel, responseId, usage, finishReasons, warnings, replies, error } = end;
    const { runId, agentName, step, model, provider, by, startTime } = this.start;
    const event: ModelEndEvent = Object.freeze({
      runId,
      agentName,
      step,
      model,
      provider,
      by,
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

/** What a model call's observation starts with. */
type ModelCallStart = CallStart<Pick<ModelEndEvent, "runId" | "agentName" | "step" | "model" | "provider" | "by" | "startTime">>;

/** How a model call ended, as its end event tells it. */
interface ModelCallEnd extends Pick<ModelEndEvent, "responseModel" | "responseId" | "usage" | "finishReasons" | "warnings" | "error"> {
  /** The replies as the event gives them: computed (redacted) when read. */
  readonly replies: () => ModelEndEvent["replies"];
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

/** What a tool call's observation starts with: `ran` is false for a call that ended without running (its start and end are told at once). */
export type ToolCallStart = CallStart<
  Pick<ToolEndEvent, "runId" | "agentName" | "step" | "toolName" | "toolCallId" | "startTime" | "ran"> & {
    /** The arguments the call runs with (the model's, for a call that never ran), redacted when an event's are read. */
    readonly args: Readonly<Record<string, unknown>>;
  }
>;

/** A tool call under observation: `finished` when its function settles, `end` once its outcome is known. */
export class ToolCallObservation extends CallObservation<ToolEndEvent, ToolCallStart> {
  #endTime: number | undefined;
  #ended = false;
  #retries = 0;

  /** The call runs again after a failed attempt (its `retries`): the end event counts the attempts. */
  retrying(): void {
    this.#retries++;
  }

  /** The tool's function settled: the call's end time (its outcome is told later, in call order). */
  finished(): void {
    this.#endTime ??= now();
  }

  /**
   * Ends the call with its tool message; `injected` are the values the call got, redacted too, as
   * is what is hidden now: a value the call itself wrote to an injected key is hidden in its own end.
   */
  end(message: ChatMessage, failure: ToolCallFailure | undefined, injected: Hidden): void {
    if (this.#ended) return;
    this.#ended = true;
    const now = this.observer.hidden();
    const hidden = injected.length === 0 ? now : [...now, ...injected];
    const text = message.toolCallResult?.result ?? "";
    const media = resultMedia(message);
    this.#finish(
      failure ? Object.freeze({ type: failure.raise === false ? "rejected" : truncateForEcho(failure.error.name), message: hidden.length === 0 ? failure.message : redactValues(failure.message, hidden) }) : undefined,
      memo(() => (hidden.length === 0 ? text : redactValues(text, hidden)), withheld),
      hidden,
      memo(() => (hidden.length === 0 || media.length === 0 ? media : redactJson(media, hidden)), noMedia),
    );
  }

  /** Ends a call the run's end cut short (an abort, another call's error). */
  abandon(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    const hidden = this.observer.hidden();
    this.#finish(this.observer.errorOf(error, hidden), () => "", hidden, () => noMedia);
  }

  #finish(error: EventError | undefined, result: () => string, hidden: Hidden, media: () => readonly MediaDescriptor[]): void {
    const { runId, agentName, step, toolName, toolCallId, startTime, ran, args } = this.start;
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
      attempts: ran ? this.#retries + 1 : 0,
      error,
      get result() {
        return result();
      },
      get media() {
        return media();
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
const noMedia: readonly MediaDescriptor[] = Object.freeze([]);
