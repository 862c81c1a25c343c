import type { ChatGenerator, ChatGeneratorRequest } from "../chat/chatGenerator";
import type { ChatMessage, ToolCall } from "../chat/chatMessage";
import { describeError, HookError } from "../errors";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import { peekStateValue, type State } from "../state/state";
import type { Tool } from "../tools/tool";
import { toolInternals } from "../tools/tool";
import type { ToolFault } from "../tools/toolFault";
import { redactor, redactValues } from "../util/redact";
import { redactJson, redactJsonWith } from "../util/redactJson";
import { isThenable } from "../util/isThenable";
import { truncateForEcho } from "../util/truncate";
import type { AgentTracing, RunTrace, TraceContext, TraceEvent } from "./agentTracing";
import { type CallObserver, ModelCallObservation, ToolCallObservation } from "./callObservation";
import { argumentsOf, type Hidden, memo, nameOf, noArguments, noHidden, noMessages, noPending, now, withinTrace } from "./eventFields";
import type { AgentHooks, EventError, HookName, ModelStartEvent, RunEndEvent, RunStartEvent, ToolStartEvent } from "./runEvents";
import type { RunUsage } from "./runUsage";
import { observedMessageJSON, type ObservedMessageJSON } from "./observedMessage";
import { serverOf } from "./serverOf";
import { toolErrorEvent } from "./toolErrorEvent";

/** What a run's observer is made of. */
export interface RunObserverOptions {
  /** The Agent's hooks, then the run's. */
  readonly hooks: readonly AgentHooks[];
  readonly tracing: AgentTracing | undefined;
  readonly runId: () => string;
  readonly agentName: string | undefined;
  readonly chatGenerator: ChatGenerator;
  readonly state: State;
  readonly tools: ReadonlyMap<string, Tool>;
  /** The trace context of the snapshot this run continues. */
  readonly continues: TraceContext | undefined;
  readonly resumed: boolean;
  readonly stepCount: number;
  /** The usage the run starts with (its earlier parts'). */
  readonly usage: RunUsage;
}

/**
 * One run's lifecycle, told to its hooks and its tracer: the loop calls it at each point. Made only
 * when the run has hooks or a tracer, so a run with neither pays nothing. Nothing a hook or the
 * tracer does reaches the run: they get frozen events (content computed, redacted and copied when
 * read), and their throws and rejections become `HookError`s, reported and otherwise ignored.
 */
export class RunObserver implements CallObserver {
  readonly #options: RunObserverOptions;
  readonly #base: { readonly runId: string; readonly agentName: string | undefined };
  readonly #model: string | undefined;
  readonly #provider: string | undefined;
  readonly #server: { readonly address: string | undefined; readonly port: number | undefined };
  /** The state keys whose values tools get injected: what content is redacted of. */
  readonly #hiddenKeys: readonly string[];
  /** Every value those keys held in this part of the run, in the order seen: a replaced value stays hidden. */
  #hiddenSeen: Hidden = noHidden;
  readonly #startTime = now();
  #trace: RunTrace | undefined;
  // Messages are immutable, and each model call's content is the whole conversation: each message
  // is redacted once, while the hidden values stay the same objects (a write to State replaces them).
  #redacted = new WeakMap<ChatMessage, ObservedMessageJSON>();
  #redactedOf: { readonly values: readonly unknown[]; readonly redact: ((text: string) => string) | undefined } | undefined;

  static create(options: RunObserverOptions): RunObserver | undefined {
    if (options.hooks.length === 0 && !options.tracing) return undefined;
    return new RunObserver(options);
  }

  private constructor(options: RunObserverOptions) {
    this.#options = options;
    this.#base = { runId: options.runId(), agentName: options.agentName };
    this.#model = nameOf(options.chatGenerator.model);
    this.#provider = nameOf(options.chatGenerator.provider);
    this.#server = serverOf(serverUrlOf(options.chatGenerator));
    const keys = new Set<string>();
    for (const tool of options.tools.values()) for (const [key] of toolInternals(tool).inputsFromState) keys.add(key);
    this.#hiddenKeys = [...keys];
  }

  /** The context snapshots of this run store: the one it continues, else its own trace's. */
  get traceContext(): TraceContext | undefined {
    return this.#options.continues ?? this.#trace?.traceContext;
  }

  runStart(): void {
    const { runId, agentName } = this.#base;
    const { resumed, stepCount, usage } = this.#options;
    const event: RunStartEvent = Object.freeze({ runId, agentName, resumed, stepCount, model: this.#model, provider: this.#provider, startTime: this.#startTime, usage });
    const { tracing } = this.#options;
    if (tracing) this.#trace = this.guard("tracing.startRun", () => tracing.startRun(event, this.#options.continues));
    this.emit("onRunStart", event);
  }

  /**
   * True when nobody would see anything more of the run: no hooks, and a trace that records nothing
   * (no provider registered). The run then drops its observer after `runStart`, at no cost per step.
   */
  get idle(): boolean {
    if (this.#options.hooks.length > 0) return false;
    const trace = this.#trace;
    return trace === undefined || this.guard("tracing.recording", () => trace.recording) === false;
  }

  /** Calls `fn` with the run's span active. */
  within<T>(fn: () => T): T {
    return withinTrace(this.#trace, fn, (error) => this.report("tracing.within", error));
  }

  event(name: string, attributes: TraceEvent["attributes"]): void {
    const trace = this.#trace;
    if (trace) this.guard("tracing.addEvent", () => trace.addEvent(Object.freeze({ name, time: now(), attributes: Object.freeze(attributes) })));
  }

  /** A model call starts: the run's own, or one a middleware makes (`by`: its name and its generator, a summarizer's). */
  modelStart(step: number, request: ChatGeneratorRequest, by?: { readonly middleware: string; readonly chatGenerator: ChatGenerator }): ModelCallObservation {
    const hidden = this.hidden();
    const startTime = now();
    const messages = memo(() => this.redactMessages(request.messages, hidden), noMessages);
    const { runId, agentName } = this.#base;
    const model = by ? nameOf(by.chatGenerator.model) : this.#model;
    const provider = by ? nameOf(by.chatGenerator.provider) : this.#provider;
    const server = by ? serverOf(serverUrlOf(by.chatGenerator)) : this.#server;
    const middleware = by?.middleware;
    // Plain frozen literals, content behind getters: an event nobody reads costs next to nothing.
    const event: ModelStartEvent = Object.freeze({
      runId,
      agentName,
      step,
      model,
      provider,
      startTime,
      generationKwargs: request.generationKwargs,
      stream: request.streamingCallback !== undefined,
      serverAddress: server.address,
      serverPort: server.port,
      by: middleware,
      tools: request.tools,
      get messages() {
        return messages();
      },
    });
    const trace = this.#trace && this.guard("tracing.startModelCall", () => this.#trace!.startModelCall(event));
    this.emit("onModelStart", event);
    return new ModelCallObservation(this, trace, { runId, agentName, step, model, provider, by: middleware, startTime, hidden });
  }

  /** A call of a run's tool starts, with the arguments it runs with (validated, before injection). */
  toolStart(step: number, call: ToolCall, args: Readonly<Record<string, unknown>>): ToolCallObservation {
    return this.#toolCall(step, call, args);
  }

  /** A call that ended without running (an unknown tool, invalid arguments, a rejection, no value to inject): its observation, to end at once. */
  toolNeverRan(step: number, call: ToolCall): ToolCallObservation {
    return this.#toolCall(step, call, undefined);
  }

  // `args` is undefined for a call that never ran: its event gets the model's arguments.
  #toolCall(step: number, call: ToolCall, args: Readonly<Record<string, unknown>> | undefined): ToolCallObservation {
    const hidden = this.hidden();
    const startTime = now();
    const ran = args !== undefined;
    const told = args ?? argumentsOf(call);
    const tool = this.#options.tools.get(call.toolName);
    // The id (and, for an unknown tool, the name) came from the model: cut to an echo's length.
    const toolName = tool ? tool.name : truncateForEcho(call.toolName);
    const toolCallId = call.id === undefined ? undefined : truncateForEcho(call.id);
    const redacted = memo(() => redactJson(told, hidden), noArguments);
    const { runId, agentName } = this.#base;
    const event: ToolStartEvent = Object.freeze({
      runId,
      agentName,
      step,
      toolName,
      toolCallId,
      toolDescription: tool?.description,
      startTime,
      get arguments() {
        return redacted();
      },
    });
    const trace = this.#trace && this.guard("tracing.startToolCall", () => this.#trace!.startToolCall(event));
    this.emit("onToolStart", event);
    return new ToolCallObservation(this, trace, { runId, agentName, step, toolName, toolCallId, startTime, ran, hidden, args: told });
  }

  /** A call's fault, told to `onToolError` (never to the tracer: the error is not redacted). A faulty call's tool is one of the run's: the call names it. */
  toolError(step: number, call: ToolCall, fault: ToolFault): void {
    if (!this.#options.hooks.some((hooks) => hooks.onToolError)) return;
    const { runId, agentName } = this.#base;
    const toolName = call.toolName;
    const toolCallId = call.id === undefined ? undefined : truncateForEcho(call.id);
    this.emit("onToolError", toolErrorEvent({ runId, agentName, step, toolName, toolCallId, time: now() }, fault));
  }

  runEnd(outcome: { exitReason: string; stepCount: number; pending?: readonly PendingConfirmation[] } | { error: unknown; stepCount: number; exitReason?: string }, usage: RunUsage): void {
    const failed = "error" in outcome && outcome.exitReason === undefined;
    const hidden = this.hidden();
    const pendingConfirmations = "pending" in outcome && outcome.pending?.length ? pendingOf(outcome.pending, hidden) : noPending;
    if (pendingConfirmations.length > 0) {
      this.event("toolwright.run.paused", { "toolwright.pending.tool_call_ids": pendingConfirmations.map((p) => p.toolCallId), "toolwright.pending.tool_names": pendingConfirmations.map((p) => p.toolName) });
    }
    const event: RunEndEvent = Object.freeze({
      runId: this.#base.runId,
      agentName: this.#base.agentName,
      startTime: this.#startTime,
      endTime: now(),
      exitReason: outcome.exitReason,
      stepCount: outcome.stepCount,
      usage,
      pendingConfirmations,
      error: failed ? this.errorOf((outcome as { error: unknown }).error, hidden) : undefined,
    });
    this.emit("onRunEnd", event);
    const trace = this.#trace;
    if (trace) this.guard("tracing.end", () => trace.end(event));
  }

  /** An error as events carry it: its class name and its message, redacted. */
  errorOf(error: unknown, hidden: Hidden): EventError {
    const type = typeof (error as { name?: unknown })?.name === "string" ? truncateForEcho((error as Error).name) : typeof error;
    return Object.freeze({ type, message: redactValues(describeError(error), hidden) });
  }

  /** The messages as JSON (media as descriptors), redacted of `hidden`, frozen; a message seen before with the same hidden values is not redacted again. */
  redactMessages(messages: readonly ChatMessage[], hidden: Hidden): readonly ObservedMessageJSON[] {
    let cached = this.#redactedOf;
    if (!cached || cached.values.length !== hidden.length || hidden.some((h, i) => h.value !== cached!.values[i])) {
      cached = this.#redactedOf = { values: hidden.map((h) => h.value), redact: hidden.length === 0 ? undefined : redactor(hidden) };
      this.#redacted = new WeakMap();
    }
    const out: ObservedMessageJSON[] = [];
    for (const message of messages) {
      let json = this.#redacted.get(message);
      if (!json) {
        json = redactJsonWith(observedMessageJSON(message), cached.redact);
        this.#redacted.set(message, json);
      }
      out.push(json);
    }
    return Object.freeze(out);
  }

  /**
   * The values tools get injected, as they are now and as they were earlier in the run: what content
   * is redacted of. A value is hidden in everything told from the moment it is in state, the result
   * of the call that wrote it (outputsToState) included.
   */
  hidden(): Hidden {
    if (this.#hiddenKeys.length === 0) return noHidden;
    let seen = this.#hiddenSeen;
    for (const key of this.#hiddenKeys) {
      const value = peekStateValue(this.#options.state, key);
      if (value === undefined || seen.some((h) => h.label === key && h.value === value)) continue;
      seen = [...seen, { label: key, value }];
    }
    return (this.#hiddenSeen = seen);
  }

  /** Tells every hook object that has it, in order; errors are reported to that object's onHookError. */
  emit<E>(name: HookName, event: E): void {
    for (const hooks of this.#options.hooks) {
      const hook = hooks[name] as ((event: E) => unknown) | undefined;
      if (!hook) continue;
      try {
        const returned = hook.call(hooks, event);
        if (isThenable(returned)) returned.then(undefined, (error: unknown) => this.report(name, error, hooks));
      } catch (error) {
        this.report(name, error, hooks);
      }
    }
  }

  /** Runs a tracer call; its throw is reported, and the run goes on without what it would have returned. */
  guard<T>(label: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (error) {
      this.report(label, error);
      return undefined;
    }
  }

  // To the hooks object's onHookError (the first one that has it, for the tracer's), else a process warning.
  report(label: string, error: unknown, hooks?: AgentHooks): void {
    const hookError = new HookError(
      label,
      `${label.startsWith("tracing.") ? `The Agent's tracer (${label})` : `Hook ${label}`} threw: ${describeError(error).replace(/\.$/, "")}. Hooks and tracers observe a run and cannot change it, so the run went on; handle errors inside the hook, or give hooks.onHookError to receive them.`,
      { cause: error },
    );
    const receiver = hooks ?? this.#options.hooks.find((h) => h.onHookError);
    if (receiver?.onHookError) {
      try {
        receiver.onHookError(hookError);
        return;
      } catch {
        // An onHookError that throws: the warning below still reports the first error.
      }
    }
    try {
      process.emitWarning(hookError);
    } catch {
      // An Error of another realm (a vm context, jest's sandbox) is refused by emitWarning: its text is not.
      process.emitWarning(hookError.message, "HookError");
    }
    if (this.#trace && !label.startsWith("tracing.")) this.event("toolwright.hook_error", { "toolwright.hook": label, "exception.message": redactValues(hookError.message, this.hidden()) });
  }
}

// The pending calls as events carry them: ids and names from outside cut, arguments redacted when read.
function pendingOf(pending: readonly PendingConfirmation[], hidden: Hidden): readonly PendingConfirmation[] {
  return Object.freeze(
    pending.map((p) => {
      const args = memo(() => redactJson(p.arguments, hidden), noArguments);
      const event: { toolCallId: string; toolName: string; readonly arguments: Readonly<Record<string, unknown>>; agent?: string } = {
        toolCallId: truncateForEcho(p.toolCallId),
        toolName: truncateForEcho(p.toolName),
        get arguments() {
          return args();
        },
      };
      if (p.agent !== undefined) event.agent = truncateForEcho(p.agent);
      return Object.freeze(event);
    }),
  );
}

// A custom generator's serverUrl getter that throws names no server: traces leave server.* out.
function serverUrlOf(chatGenerator: ChatGenerator): unknown {
  try {
    return chatGenerator.serverUrl;
  } catch {
    return undefined;
  }
}
