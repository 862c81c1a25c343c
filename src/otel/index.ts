export { openTelemetry } from "./openTelemetry";
export type { OpenTelemetryOptions } from "./openTelemetry";
