import type { ToolCall } from "../chat/chatMessage";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import { truncateForEcho } from "../util/truncate";
import type { ObservedMessageJSON } from "./observedMessage";

/** Values whose text content is redacted, each replaced by `[label]`. */
export type Hidden = ReadonlyArray<{ readonly label: string; readonly value: unknown }>;

/** Epoch milliseconds with sub-millisecond precision, as OpenTelemetry takes times. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Calls `fn` inside a trace's `within`; a `within` that throws before calling `fn` is reported, and `fn` runs outside it. */
export function withinTrace<T>(trace: { within<R>(fn: () => R): R } | undefined, fn: () => T, report: (error: unknown) => void): T {
  if (!trace) return fn();
  let called = false;
  let result: T;
  try {
    return trace.within(() => {
      called = true;
      result = fn();
      return result;
    });
  } catch (error) {
    if (called) throw error;
    report(error);
    return fn();
  }
}

export const noHidden: Hidden = Object.freeze([]);
export const noPending: readonly PendingConfirmation[] = Object.freeze([]);
export const noStrings: readonly string[] = Object.freeze([]);
export const noMessages: readonly ObservedMessageJSON[] = Object.freeze([]);
export const noArguments: Readonly<Record<string, unknown>> = Object.freeze({});


// A name a generator reports (hostile input): a non-empty string, cut to an echo's length.
export function nameOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? truncateForEcho(value) : undefined;
}

export function argumentsOf(call: ToolCall): Readonly<Record<string, unknown>> {
  const args: unknown = call.arguments;
  return typeof args === "object" && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : noArguments;
}


/** A function computing a value on its first call and returning it after; a computation that throws gives `fallback`. */
export function memo<T>(compute: () => T, fallback: T): () => T {
  let computed: { value: T } | undefined;
  return () => {
    if (!computed) {
      try {
        computed = { value: compute() };
      } catch {
        computed = { value: fallback };
      }
    }
    return computed.value;
  };
}
