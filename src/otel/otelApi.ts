// The OpenTelemetry API (@opentelemetry/api, an optional peer dependency) is loaded when
// openTelemetry() is called, not when toolwright/otel is imported, so that a missing API is a
// ConfigurationError that says what to install. It must be the app's own copy, never a bundled
// one: the API finds the registered provider and context manager through a global keyed by its
// major version, and its types are what the app's SDK is built against.
import type { Tracer } from "@opentelemetry/api";
import { ConfigurationError } from "../errors";

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof import("@opentelemetry/api");

/** What every span-making part of the integration shares. */
export interface OtelScope {
  readonly api: OtelApi;
  readonly tracer: Tracer;
  readonly captureContent: boolean;
}

/** The app's `@opentelemetry/api`; a missing one is a ConfigurationError that says what to install. */
export function otelApi(subject: string): OtelApi {
  try {
    return require("@opentelemetry/api") as OtelApi;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    throw new ConfigurationError(subject, `${subject} needs the OpenTelemetry API: npm install @opentelemetry/api (version 1.x), an optional peer dependency of toolwright.`, { cause: error });
  }
}
