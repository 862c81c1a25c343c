/**
 * Runs as OpenTelemetry traces (`openTelemetry()`), following the GenAI semantic conventions. Needs
 * `@opentelemetry/api` (an optional peer dependency).
 * @module toolwright/otel
 */
export { openTelemetry } from "./openTelemetry";
export type { OpenTelemetryOptions } from "./openTelemetry";
