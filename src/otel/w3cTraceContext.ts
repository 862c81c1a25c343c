import type { SpanContext } from "@opentelemetry/api";
import type { TraceContext } from "../observe/agentTracing";
import type { OtelApi } from "./otelApi";

// Version 00 only, lowercase hex only, exactly 55 characters (https://www.w3.org/TR/trace-context/#traceparent-header).
// Anchored and of fixed length, so a long hostile string fails within its first 56 characters.
const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The remote span context a snapshot's trace context names, or undefined when it does not parse.
 * The value comes from a snapshot, so it is untrusted and never makes this throw: anything but a
 * version-00 traceparent with non-zero lowercase ids is ignored. A tracestate that does not parse
 * does not void the traceparent (W3C: "failure to parse tracestate MUST NOT affect the parsing of
 * traceparent"); its invalid members are dropped, and all of it when it is not a string or longer
 * than 512 characters.
 */
export function parseTraceContext(api: OtelApi, value: unknown): SpanContext | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { traceparent, tracestate } = value as Partial<Record<keyof TraceContext, unknown>>;
  if (typeof traceparent !== "string") return undefined;
  const match = traceparentPattern.exec(traceparent);
  if (match === null) return undefined;
  const [, traceId, spanId, flags] = match;
  if (!api.isValidTraceId(traceId) || !api.isValidSpanId(spanId)) return undefined;
  const spanContext: SpanContext = { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
  if (typeof tracestate === "string" && tracestate !== "") {
    const traceState = api.createTraceState(tracestate);
    if (traceState.serialize() !== "") spanContext.traceState = traceState;
  }
  return spanContext;
}

/** A span context as a W3C trace context, or undefined when it is not valid (the no-op provider's spans). */
export function formatTraceContext(api: OtelApi, spanContext: SpanContext): TraceContext | undefined {
  if (!api.isSpanContextValid(spanContext)) return undefined;
  // Lowercase: the API accepts uppercase ids from a custom provider, the traceparent format does not.
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, "0");
  const traceparent = `00-${spanContext.traceId.toLowerCase()}-${spanContext.spanId.toLowerCase()}-${flags}`;
  const tracestate = spanContext.traceState?.serialize();
  return Object.freeze(tracestate ? { traceparent, tracestate } : { traceparent });
}
