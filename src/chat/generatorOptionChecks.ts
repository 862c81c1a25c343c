import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import type { ModelCallLimits } from "./modelCallScope";
import type { RetryPolicy } from "./retryModelCall";

/** Whose option a check reads, and how it reports a bad value. */
export interface OptionOwner {
  /** The generator's class name, the subject of the message: `OpenAIChatGenerator`. */
  readonly subject: string;
  /** Makes the error of a bad option from its name and message; default a ConfigurationError of `subject`. */
  readonly optionError?: (name: string, message: string) => ConfigurationError;
}

/** A millisecond option to check: its name, the default (also the example in the message), and whether 0 is allowed (a wait may be 0, a limit may not). */
export interface MillisecondsOption extends OptionOwner {
  readonly name: string;
  readonly example: number;
  readonly allowZero?: boolean;
}

// setTimeout fires at once (with a warning) for longer delays.
const longestTimerMs = 2_147_483_647;

/** Checks a generator option in milliseconds, returning `option.example` when it is not given. */
export function checkMilliseconds(value: unknown, option: MillisecondsOption): number {
  const { name, example, allowZero = false } = option;
  if (value === undefined) return example;
  if (typeof value === "number" && (allowZero ? value >= 0 : value > 0) && value <= longestTimerMs) return value;
  const range = allowZero ? `from 0 to ${longestTimerMs}` : `greater than 0 and at most ${longestTimerMs}`;
  throw fail(option, name, `${option.subject} needs ${name} to be a number of milliseconds ${range}, e.g. ${name}: ${example}, got ${describeKind(value)}.`);
}

/** Checks a generator's `maxRetries`, returning 2 when it is not given. */
export function checkRetries(value: unknown, owner: OptionOwner): number {
  if (value === undefined) return 2;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  throw fail(owner, "maxRetries", `${owner.subject} needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got ${describeKind(value)}.`);
}

function fail(owner: OptionOwner, name: string, message: string): ConfigurationError {
  return owner.optionError ? owner.optionError(name, message) : new ConfigurationError(owner.subject, message);
}

/** The options every generator's model call takes: retries, the longest wait before one, the deadline and the stream's idle limit. */
export interface ModelCallOptions {
  readonly maxRetries?: unknown;
  readonly maxRetryDelayMs?: unknown;
  readonly deadlineMs?: unknown;
  readonly streamIdleTimeoutMs?: unknown;
}

/**
 * Checks a generator's model-call options and returns its retry policy (with the provider's rules:
 * which failures to retry, how long the response asks to wait) and its call limits.
 */
export function readModelCallOptions(
  options: ModelCallOptions,
  owner: OptionOwner,
  rules: Pick<RetryPolicy, "isRetryable" | "retryAfterMs">,
): { readonly retry: RetryPolicy; readonly limits: ModelCallLimits } {
  return {
    retry: {
      maxRetries: checkRetries(options.maxRetries, owner),
      maxRetryDelayMs: checkMilliseconds(options.maxRetryDelayMs, { ...owner, name: "maxRetryDelayMs", example: 60_000, allowZero: true }),
      ...rules,
    },
    limits: {
      deadlineMs: checkMilliseconds(options.deadlineMs, { ...owner, name: "deadlineMs", example: 600_000 }),
      streamIdleTimeoutMs: checkMilliseconds(options.streamIdleTimeoutMs, { ...owner, name: "streamIdleTimeoutMs", example: 300_000 }),
    },
  };
}
