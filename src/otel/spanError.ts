import type { Span } from "@opentelemetry/api";
import type { EventError } from "../observe/runEvents";
import type { OtelApi } from "./otelApi";

/**
 * Marks a span failed: status ERROR with the error's message and `error.type`; with
 * `recordException`, an `exception` event at `time` too (`exception.type`, `exception.message`).
 */
export function setSpanError(api: OtelApi, span: Span, error: EventError, time: number, recordException: boolean): void {
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: error.message });
  span.setAttribute("error.type", error.type);
  if (recordException) span.recordException({ name: error.type, message: error.message }, time);
}
