import type { StreamingChunk, ToolCallDeltaChunk } from "../chat/streaming";
import type { ToolCall, ToolCallResult } from "../chat/chatMessage";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import { NestedAgentProgress } from "./nestedAgentProgress";
import { parsedArguments } from "./parsedArguments";
import { toolOutputValue } from "./toolOutputValue";
import type { UIFinishReason, UIMessageChunk } from "./uiMessageChunk";
import type { ToUIMessageStreamOptions, UIRunFailure } from "./uiStreamOptions";

interface CallPart {
  readonly toolCallId: string;
  toolName: string | undefined;
  text: string;
  started: boolean;
  inputSent: boolean;
  done: boolean;
  nested?: NestedAgentProgress;
}

const defaultErrorText = "The run failed.";

/**
 * Turns the items of an `agent.stream()` run or of `RunQueue.events()` into UI message chunks, one
 * item at a time, keeping what the protocol needs: open text and reasoning parts, the tool calls
 * of the step, whether a step is open. Items that are not events (hostile bytes from Redis) are skipped.
 */
export class UIChunkMapper {
  readonly #options: ToUIMessageStreamOptions;
  readonly #calls = new Map<string, CallPart>();
  #streaming = new Map<number, CallPart>();
  #out: UIMessageChunk[] = [];
  #stepOpen = false;
  #text: string | undefined;
  #reasoning: string | undefined;
  #ids = 0;
  #ended = false;

  constructor(options: ToUIMessageStreamOptions = {}) {
    this.#options = options;
    for (const toolCallId of options.knownToolCalls ?? []) {
      if (typeof toolCallId === "string") this.#calls.set(toolCallId, { toolCallId, toolName: undefined, text: "", started: true, inputSent: true, done: false });
    }
  }

  /** The stream's first chunk. */
  start(): UIMessageChunk[] {
    return [this.#options.messageId === undefined ? { type: "start" } : { type: "start", messageId: this.#options.messageId }];
  }

  /** True once an end (result, pause, stop, failure, cancel) was mapped. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The chunks for one item of the source. */
  map(item: unknown): UIMessageChunk[] {
    this.#out = [];
    if (this.#ended || typeof item !== "object" || item === null) return this.#out;
    const entry = item as { id?: unknown; event?: unknown; type?: unknown };
    if (typeof entry.id === "string" && typeof entry.event === "object" && entry.event !== null) this.#runEvent(entry.event as { type?: unknown });
    else this.#agentEvent(entry);
    return this.#out;
  }

  /** The chunks for a source that threw: `abort` for an AbortError, else `error` with a safe text. */
  fail(error: unknown): UIMessageChunk[] {
    this.#out = [];
    this.#failed(error instanceof Error ? error : { name: "Error", message: String(error) });
    return this.#out;
  }

  #failed(error: UIRunFailure): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#closeText();
    if (error.name === "AbortError") this.#out.push({ type: "abort", reason: "The run was aborted." });
    else this.#out.push({ type: "error", errorText: this.#errorText(error) });
  }

  /** The chunks for a source that ended without an end event. */
  end(): UIMessageChunk[] {
    this.#out = [];
    if (!this.#ended) this.#finish(undefined);
    return this.#out;
  }

  #agentEvent(event: { type?: unknown }): void {
    if (event.type === "result") {
      const result = (event as { result?: unknown }).result as Record<string, unknown> | undefined;
      if (typeof result !== "object" || result === null) return;
      if (result.exitReason === "confirmation_required" && Array.isArray(result.pendingConfirmations)) this.#approvals(result.pendingConfirmations as PendingConfirmation[]);
      this.#state(result);
      this.#finish(finishReason(result.exitReason));
      return;
    }
    this.#chunk(event as StreamingChunk);
  }

  #runEvent(event: { type?: unknown }): void {
    const fields = event as Record<string, unknown>;
    switch (event.type) {
      case "recovered":
        // The lost attempt's step may be sent again: its parts end here, the step starts anew.
        this.#closeText();
        this.#finishStep();
        return;
      case "paused":
        if (Array.isArray(fields.pendingConfirmations)) this.#approvals(fields.pendingConfirmations as PendingConfirmation[]);
        this.#finish("tool-calls");
        return;
      case "stopped":
      case "result": {
        const result = fields.result as { state?: unknown; exitReason?: unknown } | undefined;
        if (typeof result?.state === "object" && result.state !== null) this.#state(result.state as Record<string, unknown>);
        this.#finish(event.type === "stopped" ? "other" : finishReason(result?.exitReason));
        return;
      }
      case "failed": {
        const error = fields.error as { name?: unknown; message?: unknown } | undefined;
        this.#failed({ name: String(error?.name ?? "Error"), message: String(error?.message ?? "") });
        return;
      }
      case "cancelled":
        this.#closeText();
        this.#ended = true;
        this.#out.push({ type: "abort", reason: "The run was cancelled." });
        return;
      default:
        this.#chunk(event as StreamingChunk);
    }
  }

  #chunk(chunk: StreamingChunk): void {
    if (typeof chunk.agent === "string") {
      this.#nested(chunk as StreamingChunk & { agent: string });
      return;
    }
    this.#flushNested();
    switch (chunk.type) {
      case "text":
      case "reasoning":
        if (typeof chunk.delta !== "string" || chunk.delta === "") return;
        this.#openStep();
        if (chunk.type === "text") {
          this.#closeReasoning();
          if (this.#text === undefined) this.#out.push({ type: "text-start", id: (this.#text = `text-${++this.#ids}`) });
          this.#out.push({ type: "text-delta", id: this.#text, delta: chunk.delta });
        } else {
          this.#closeTextPart();
          if (this.#reasoning === undefined) this.#out.push({ type: "reasoning-start", id: (this.#reasoning = `reasoning-${++this.#ids}`) });
          this.#out.push({ type: "reasoning-delta", id: this.#reasoning, delta: chunk.delta });
        }
        return;
      case "toolCallDelta":
        if (typeof chunk.index !== "number") return;
        this.#openStep();
        this.#closeText();
        this.#toolCallDelta(chunk);
        return;
      case "toolProgress": {
        if (typeof chunk.progress !== "number") return;
        const call = this.#callOf(chunk.toolCall, chunk.index);
        if (!call || call.done) return;
        const { progress, total, message } = chunk;
        this.#out.push({ type: "tool-output-available", toolCallId: call.toolCallId, preliminary: true, output: { type: "progress", progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) } });
        return;
      }
      case "toolResult": {
        const call = this.#callOf(chunk.toolCall, chunk.index);
        if (!call || typeof chunk.result !== "object" || chunk.result === null) return;
        call.done = true;
        const result: ToolCallResult = chunk.result;
        this.#out.push(result.error ? { type: "tool-output-error", toolCallId: call.toolCallId, errorText: String(result.result) } : { type: "tool-output-available", toolCallId: call.toolCallId, output: toolOutputValue(result, this.#options.media ?? "descriptor") });
        return;
      }
      case "finish":
        this.#closeText();
        for (const call of this.#streaming.values()) this.#sendInput(call, undefined);
        if (chunk.finishReason === "tool_call_results" || this.#streaming.size === 0) this.#finishStep();
        this.#streaming = new Map();
        return;
      default:
    }
  }

  #toolCallDelta(chunk: ToolCallDeltaChunk): void {
    let call = this.#streaming.get(chunk.index);
    if (!call) {
      const shared = typeof chunk.id !== "string" || [...this.#streaming.values()].some((other) => other.toolCallId === chunk.id);
      call = { toolCallId: shared ? `#${chunk.index}` : chunk.id!, toolName: undefined, text: "", started: false, inputSent: false, done: false };
      this.#streaming.set(chunk.index, call);
      this.#calls.set(call.toolCallId, call);
    }
    if (call.toolName === undefined && typeof chunk.toolName === "string" && chunk.toolName !== "") call.toolName = chunk.toolName;
    const delta = typeof chunk.argumentsDelta === "string" ? chunk.argumentsDelta : "";
    call.text += delta;
    if (call.toolName === undefined || call.inputSent) return;
    if (!call.started) {
      call.started = true;
      this.#out.push({ type: "tool-input-start", toolCallId: call.toolCallId, toolName: call.toolName });
      if (call.text !== "") this.#out.push({ type: "tool-input-delta", toolCallId: call.toolCallId, inputTextDelta: call.text });
    } else if (delta !== "") {
      this.#out.push({ type: "tool-input-delta", toolCallId: call.toolCallId, inputTextDelta: delta });
    }
  }

  // The part of a call a tool chunk is about; a call the stream never showed (a model that does not stream calls) gets its input now.
  #callOf(toolCall: ToolCall | undefined, index: unknown): CallPart | undefined {
    if (typeof toolCall !== "object" || toolCall === null) return undefined;
    const toolCallId = typeof toolCall.id === "string" ? toolCall.id : `#${String(index)}`;
    let call = this.#calls.get(toolCallId);
    if (!call) {
      this.#openStep();
      call = { toolCallId, toolName: undefined, text: "", started: false, inputSent: false, done: false };
      this.#calls.set(toolCallId, call);
    }
    if (call.toolName === undefined && typeof toolCall.toolName === "string") call.toolName = toolCall.toolName;
    this.#sendInput(call, typeof toolCall.arguments === "string" ? undefined : { value: toolCall.arguments });
    return call;
  }

  #sendInput(call: CallPart, input: { value: unknown } | undefined): void {
    if (call.inputSent || call.toolName === undefined) return;
    call.inputSent = true;
    if (input) {
      this.#out.push({ type: "tool-input-available", toolCallId: call.toolCallId, toolName: call.toolName, input: input.value });
      return;
    }
    const parsed = parsedArguments(call.text);
    if (parsed.ok) this.#out.push({ type: "tool-input-available", toolCallId: call.toolCallId, toolName: call.toolName, input: parsed.value });
    else this.#out.push({ type: "tool-input-error", toolCallId: call.toolCallId, toolName: call.toolName, input: call.text, errorText: `Tool '${call.toolName}' was called with arguments that are not valid JSON.` });
  }

  // A sub-run's chunk goes into the preliminary output of the one running call of its agent tool; with
  // two calls of the same agent tool running at once the chunk cannot say whose it is, so it is not shown.
  #nested(chunk: StreamingChunk & { agent: string }): void {
    const tool = chunk.agent.split("/")[0];
    const running = [...this.#calls.values()].filter((call) => call.toolName === tool && call.inputSent && !call.done);
    if (running.length !== 1) return;
    const call = running[0]!;
    call.nested ??= new NestedAgentProgress(tool!, this.#options.media ?? "descriptor");
    const isDelta = chunk.type === "text" || chunk.type === "reasoning";
    if (!isDelta) this.#flushNested();
    if (call.nested.add(chunk)) this.#out.push({ type: "tool-output-available", toolCallId: call.toolCallId, preliminary: true, output: call.nested.output() });
  }

  #flushNested(): void {
    for (const call of this.#calls.values()) {
      if (call.nested?.dirty && !call.done) this.#out.push({ type: "tool-output-available", toolCallId: call.toolCallId, preliminary: true, output: call.nested.output() });
    }
  }

  #approvals(pending: readonly PendingConfirmation[]): void {
    this.#flushNested();
    this.#openStep();
    this.#closeText();
    for (const confirmation of pending) {
      if (typeof confirmation !== "object" || confirmation === null || typeof confirmation.toolCallId !== "string" || typeof confirmation.toolName !== "string") continue;
      const { toolCallId, toolName, agent } = confirmation;
      let call = this.#calls.get(toolCallId);
      if (!call) {
        call = { toolCallId, toolName, text: "", started: false, inputSent: true, done: false };
        this.#calls.set(toolCallId, call);
        // A call inside an agent tool's sub-run gets a part of its own, labelled by its agent, so the page can ask about it.
        this.#out.push({ type: "tool-input-available", toolCallId, toolName, input: confirmation.arguments, ...(typeof agent === "string" && { toolMetadata: { agent } }) });
      } else {
        this.#sendInput(call, { value: confirmation.arguments });
      }
      this.#out.push({ type: "tool-approval-request", approvalId: toolCallId, toolCallId });
    }
  }

  #state(values: Record<string, unknown>): void {
    const keys = this.#options.state ?? [];
    if (keys.length === 0) return;
    const data: Record<string, unknown> = {};
    for (const key of keys) if (Object.hasOwn(values, key) && values[key] !== undefined) data[key] = values[key];
    this.#out.push({ type: "data-state", id: "state", data: JSON.parse(JSON.stringify(data)) as unknown });
  }

  #finish(reason: UIFinishReason | undefined): void {
    this.#flushNested();
    this.#closeText();
    this.#finishStep();
    this.#ended = true;
    this.#out.push(reason === undefined ? { type: "finish" } : { type: "finish", finishReason: reason });
  }

  #errorText(error: UIRunFailure): string {
    if (!this.#options.onError) return defaultErrorText;
    try {
      const text = this.#options.onError(error);
      return typeof text === "string" ? text : defaultErrorText;
    } catch {
      return defaultErrorText;
    }
  }

  #openStep(): void {
    if (this.#stepOpen) return;
    this.#stepOpen = true;
    this.#out.push({ type: "start-step" });
  }

  #finishStep(): void {
    if (!this.#stepOpen) return;
    this.#stepOpen = false;
    this.#out.push({ type: "finish-step" });
  }

  #closeText(): void {
    this.#closeTextPart();
    this.#closeReasoning();
  }

  #closeTextPart(): void {
    if (this.#text !== undefined) this.#out.push({ type: "text-end", id: this.#text });
    this.#text = undefined;
  }

  #closeReasoning(): void {
    if (this.#reasoning !== undefined) this.#out.push({ type: "reasoning-end", id: this.#reasoning });
    this.#reasoning = undefined;
  }
}

function finishReason(exitReason: unknown): UIFinishReason {
  switch (exitReason) {
    case "text":
      return "stop";
    case "confirmation_required":
      return "tool-calls";
    case "max_agent_steps":
      return "length";
    case "stopped":
    case "budget_exhausted":
    case "guardrail_tripped":
      return "other";
    default:
      return "stop";
  }
}
