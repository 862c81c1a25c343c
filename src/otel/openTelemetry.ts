import type { TracerProvider } from "@opentelemetry/api";
import { ConfigurationError } from "../errors";
import type { AgentTracing, RunTrace, TraceContext } from "../observe/agentTracing";
import type { RunStartEvent } from "../observe/runEvents";
import { describeKind } from "../util/describeValue";
import { otelApi, type OtelScope } from "./otelApi";
import { RunSpanTrace } from "./runSpanTrace";

/** The tracer's instrumentation scope: this package's name and version (a test checks it against package.json). */
export const tracerName = "toolwright";
export const tracerVersion = "0.1.0";

/** Options of `openTelemetry()`. */
export interface OpenTelemetryOptions {
  /** Default: the global provider (trace.getTracerProvider()) — a no-op until the app registers one. */
  tracerProvider?: TracerProvider;
  /** Record message, argument and result content (redacted of injected state values). Default false. */
  captureContent?: boolean;
}

const subject = "openTelemetry";
const optionNames = ["tracerProvider", "captureContent"];

/**
 * Traces runs with OpenTelemetry, following the GenAI semantic conventions
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/): a run is an `invoke_agent` span, each
 * model call a `chat` span and each tool call an `execute_tool` span beneath it. A run resumed
 * from a snapshot continues the trace of the run that made the snapshot. A run's span ends with
 * the run's cumulative usage (`toolwright.usage.*`, earlier parts of a resumed run included) and
 * that part's own tokens (`gen_ai.usage.*`); to count each model call once, sum either the chat
 * spans' or the run spans' `gen_ai.usage.*` over a trace, not both. Uses the app's own
 * `@opentelemetry/api` (an optional peer dependency); with no provider registered, spans are the
 * API's no-ops and nothing is computed for them.
 *
 * @example
 * const agent = new Agent({ chatGenerator, tools, tracing: openTelemetry({ captureContent: true }) });
 */
export function openTelemetry(options?: OpenTelemetryOptions): AgentTracing {
  const { tracerProvider, captureContent = false } = checkOptions(options);
  const api = otelApi(subject);
  const tracer = (tracerProvider ?? api.trace.getTracerProvider()).getTracer(tracerName, tracerVersion);
  const scope: OtelScope = { api, tracer, captureContent };
  return Object.freeze({
    captureContent,
    startRun: (event: RunStartEvent, continues: TraceContext | undefined): RunTrace => new RunSpanTrace(scope, event, continues),
  });
}

function checkOptions(options: unknown): OpenTelemetryOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ConfigurationError(subject, `${subject} needs an options object such as { captureContent: true }, got ${describeKind(options)}.`);
  }
  const unknownOption = Object.keys(options).find((key) => !optionNames.includes(key));
  if (unknownOption !== undefined) throw new ConfigurationError(subject, `${subject} has unknown option '${unknownOption}'; the options are ${optionNames.join(" and ")}.`);
  const { tracerProvider, captureContent } = options as Record<string, unknown>;
  if (captureContent !== undefined && typeof captureContent !== "boolean") {
    throw new ConfigurationError(subject, `${subject} has a captureContent that is not a boolean, got ${describeKind(captureContent)}; pass true to record content, or false (the default).`);
  }
  if (tracerProvider !== undefined && typeof (tracerProvider as { getTracer?: unknown } | null)?.getTracer !== "function") {
    throw new ConfigurationError(
      subject,
      `${subject} has a tracerProvider without a getTracer method, got ${describeKind(tracerProvider)}; pass a TracerProvider (the SDK's NodeTracerProvider, say), or leave it out to use the global one.`,
    );
  }
  return { tracerProvider: tracerProvider as TracerProvider | undefined, captureContent: captureContent as boolean | undefined };
}
