// TOOLWRIGHT_TRACE=console: the examples' runs traced with toolwright/otel into the OpenTelemetry
// SDK (an in-memory exporter), printed as a tree when the run is over. A service would register its
// own provider and exporter (OTLP to Jaeger, Tempo, Honeycomb, Datadog, …) instead; the Agent's side
// is the same `tracing: openTelemetry()`.
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { AgentTracing } from "toolwright";
import { openTelemetry } from "toolwright/otel";

/** A tracer for `new Agent({ tracing })` and a printer of what it recorded. */
export interface ConsoleTrace {
  readonly tracing: AgentTracing;
  /** The finished spans as an indented tree, one line per span, children in start order. */
  lines(): string[];
}

/**
 * The trace option the environment asks for: `TOOLWRIGHT_TRACE=console` records spans (with
 * content, redacted, when `TOOLWRIGHT_TRACE_CONTENT=1`); unset records nothing.
 */
export function traceFromEnvironment(env: NodeJS.ProcessEnv = process.env): ConsoleTrace | undefined {
  const mode = env.TOOLWRIGHT_TRACE;
  if (mode === undefined || mode === "") return undefined;
  if (mode !== "console") throw new Error(`TOOLWRIGHT_TRACE is '${mode}'; the examples know 'console' (print the run's spans as a tree), or leave it unset.`);
  return consoleTrace({ captureContent: env.TOOLWRIGHT_TRACE_CONTENT === "1" });
}

export function consoleTrace(options: { captureContent?: boolean } = {}): ConsoleTrace {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    tracing: openTelemetry({ tracerProvider, captureContent: options.captureContent ?? false }),
    lines: () => spanTree(exporter.getFinishedSpans()),
  };
}

function spanTree(spans: readonly ReadableSpan[]): string[] {
  const ordered = [...spans].sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = (parent: string | undefined) => ordered.filter((s) => (parent === undefined ? !ids.has(s.parentSpanContext?.spanId ?? "") : s.parentSpanContext?.spanId === parent));
  const lines: string[] = [];
  const walk = (span: ReadableSpan, prefix: string, last: boolean, root: boolean) => {
    lines.push(`${prefix}${root ? "" : last ? "└─ " : "├─ "}${describe(span)}`);
    const kids = children(span.spanContext().spanId);
    kids.forEach((kid, i) => walk(kid, root ? "" : `${prefix}${last ? "   " : "│  "}`, i === kids.length - 1, false));
  };
  for (const root of children(undefined)) {
    lines.push(`trace ${root.spanContext().traceId}`);
    walk(root, "", true, true);
  }
  return lines;
}

// The span's name, duration and the attributes worth a glance.
function describe(span: ReadableSpan): string {
  const a = span.attributes;
  const ms = (span.duration[0] * 1e3 + span.duration[1] / 1e6).toFixed(2);
  const facts: string[] = [];
  if (a["toolwright.exit_reason"] !== undefined) facts.push(`exit=${String(a["toolwright.exit_reason"])}`);
  if (a["toolwright.usage.model_calls"] !== undefined) facts.push(`model_calls=${String(a["toolwright.usage.model_calls"])} tool_calls=${String(a["toolwright.usage.tool_calls"])} tokens=${String(a["toolwright.usage.total_tokens"])}`);
  if (a["gen_ai.response.finish_reasons"] !== undefined) facts.push(`finish=${(a["gen_ai.response.finish_reasons"] as string[]).join(",")}`);
  // The run's span has its totals above; its own gen_ai.usage.* would repeat them.
  if (a["gen_ai.usage.input_tokens"] !== undefined && a["toolwright.usage.model_calls"] === undefined) facts.push(`tokens=${String(a["gen_ai.usage.input_tokens"])}+${String(a["gen_ai.usage.output_tokens"] ?? 0)}`);
  if (a["gen_ai.tool.call.id"] !== undefined) facts.push(`call=${String(a["gen_ai.tool.call.id"])}`);
  if (a["gen_ai.tool.call.arguments"] !== undefined) facts.push(`args=${String(a["gen_ai.tool.call.arguments"])}`);
  if (span.status.code === 2) facts.push(`ERROR ${span.status.message ?? ""}`.trim());
  for (const event of span.events) if (event.name !== "exception") facts.push(`event=${event.name}`);
  return `${span.name}  ${ms} ms${facts.length > 0 ? `  ${facts.join(" ")}` : ""}`;
}
