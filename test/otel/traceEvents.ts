// Lifecycle events as the Agent hands them to a tracer, built by hand so that tests drive
// openTelemetry()'s RunTrace directly. Content fields are getters that record each read in `reads`
// (the Agent computes and redacts them when read, so a tracer must read them only to record them).
import type { ToolSpec } from "../../src/chat/chatGenerator";
import type { ObservedMessageJSON } from "../../src/observe/observedMessage";
import type { ModelEndEvent, ModelStartEvent, RunEndEvent, RunStartEvent, ToolEndEvent, ToolStartEvent } from "../../src/observe/runEvents";
import { noUsage } from "../../src/observe/runUsage";

/** 2023-11-14T22:13:20.000500Z: an epoch time in milliseconds with a sub-millisecond part, exact as a double. */
export const T0 = 1_700_000_000_000.5;

/** An epoch time in milliseconds as the SDK stores it: [seconds, nanoseconds]. */
export function hrTime(ms: number): [number, number] {
  return [Math.trunc(ms / 1000), Math.round((ms % 1000) * 1e6)];
}

/** The content getters read so far, by field name. */
export type Reads = string[];

function withContent<T extends object, C extends object>(base: T, content: C, reads: Reads): T & C {
  const event = { ...base } as T & C;
  for (const [key, value] of Object.entries(content)) {
    Object.defineProperty(event, key, {
      enumerable: true,
      get: () => {
        reads.push(key);
        return value;
      },
    });
  }
  return event;
}

const ids = { runId: "run-1", agentName: "support" as string | undefined };

export function runStart(over: Partial<RunStartEvent> = {}): RunStartEvent {
  return { ...ids, resumed: false, stepCount: 0, model: "gpt-test", provider: "openai", startTime: T0, usage: noUsage, ...over };
}

export function modelStart(
  reads: Reads,
  over: Partial<Omit<ModelStartEvent, "messages" | "tools">> = {},
  content: { messages?: readonly ObservedMessageJSON[]; tools?: readonly ToolSpec[] } = {},
): ModelStartEvent {
  const base = { ...ids, step: 1, model: "gpt-test" as string | undefined, provider: "openai" as string | undefined, startTime: T0 + 1, generationKwargs: undefined, stream: false, serverAddress: undefined, serverPort: undefined, by: undefined as string | undefined, ...over };
  return withContent(base, { messages: content.messages ?? [], tools: content.tools ?? [] }, reads);
}

export function modelEnd(reads: Reads, over: Partial<Omit<ModelEndEvent, "replies">> = {}, replies: readonly ObservedMessageJSON[] = []): ModelEndEvent {
  const base = {
    ...ids,
    step: 1,
    model: "gpt-test" as string | undefined,
    provider: "openai" as string | undefined,
    by: undefined as string | undefined,
    responseModel: undefined,
    responseId: undefined,
    startTime: T0 + 1,
    endTime: T0 + 2,
    timeToFirstChunk: undefined,
    usage: undefined,
    finishReasons: [] as readonly string[],
    warnings: [] as readonly string[],
    error: undefined,
    ...over,
  };
  return withContent(base, { replies }, reads);
}

export function toolStart(reads: Reads, over: Partial<Omit<ToolStartEvent, "arguments">> = {}, args: Readonly<Record<string, unknown>> = {}): ToolStartEvent {
  return withContent({ ...ids, step: 1, toolName: "search", toolCallId: "call_1" as string | undefined, toolDescription: undefined, startTime: T0 + 3, ...over }, { arguments: args }, reads);
}

export function toolEnd(reads: Reads, over: Partial<Omit<ToolEndEvent, "result" | "arguments" | "media">> = {}, result = "", args: Readonly<Record<string, unknown>> = {}): ToolEndEvent {
  const base = { ...ids, step: 1, toolName: "search", toolCallId: "call_1" as string | undefined, startTime: T0 + 3, endTime: T0 + 4, ran: true, attempts: 1, error: undefined, ...over };
  return withContent(base, { result, arguments: args, media: [] }, reads);
}

export function runEnd(over: Partial<RunEndEvent> = {}): RunEndEvent {
  return { ...ids, startTime: T0, endTime: T0 + 10, exitReason: "text", stepCount: 1, usage: noUsage, pendingConfirmations: [], error: undefined, ...over };
}
