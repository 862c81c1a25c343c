import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";

/** How a failed tool call is tried again (`retries` on a Tool or `@tool`). */
export interface ToolRetries {
  /** The most times the call runs in all, the first included: a whole number from 1 to 10. */
  readonly attempts: number;
  /** The wait before the first retry, in ms, doubled for each further one (jittered to between half and all of it). Default 200. */
  readonly backoffMs?: number;
  /** The longest wait between two attempts, in ms. Default 10,000. */
  readonly maxBackoffMs?: number;
}

/** The limits of one tool's calls, as a Tool holds them once checked. */
export interface ToolLimits {
  readonly timeoutMs: number | undefined;
  readonly retries: Readonly<Required<ToolRetries>> | undefined;
  readonly maxResultChars: number | undefined;
  readonly idempotent: boolean | undefined;
}

/** The most characters of one tool result the model is sent when neither the tool nor the Agent says otherwise. */
export const defaultMaxToolResultChars = 100_000;

/** The largest delay a timer keeps (2^31 - 1 ms). */
const maxDelayMs = 2_147_483_647;
const retryKeys = ["attempts", "backoffMs", "maxBackoffMs"];

/**
 * Checks a tool's `timeoutMs`, `retries`, `maxResultChars` and `idempotent` options; throws
 * `ConfigurationError` naming `subject`.
 */
export function checkToolLimits(subject: string, options: { timeoutMs?: unknown; retries?: unknown; maxResultChars?: unknown; idempotent?: unknown }): ToolLimits {
  const { timeoutMs, retries, maxResultChars, idempotent } = options;
  if (timeoutMs !== undefined && !isWhole(timeoutMs, 1, maxDelayMs)) {
    throw new ConfigurationError(subject, `${subject} has timeoutMs ${describeKind(timeoutMs)}: it must be a whole number of milliseconds from 1 to 2147483647, or left out for the Agent's toolTimeoutMs.`);
  }
  if (maxResultChars !== undefined && !isWhole(maxResultChars, 1, Number.MAX_SAFE_INTEGER)) {
    throw new ConfigurationError(subject, `${subject} has maxResultChars ${describeKind(maxResultChars)}: it must be a whole number of at least 1, or left out for the Agent's maxToolResultChars.`);
  }
  if (idempotent !== undefined && typeof idempotent !== "boolean") {
    throw new ConfigurationError(subject, `${subject} has idempotent ${describeKind(idempotent)}: it must be true or false.`);
  }
  return { timeoutMs: timeoutMs as number | undefined, retries: checkRetries(subject, retries), maxResultChars: maxResultChars as number | undefined, idempotent: idempotent as boolean | undefined };
}

function checkRetries(subject: string, value: unknown): Readonly<Required<ToolRetries>> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConfigurationError(subject, `${subject} has retries that are not { attempts, backoffMs?, maxBackoffMs? }, got ${describeKind(value)}.`);
  }
  const unknownKey = Object.keys(value).find((k) => !retryKeys.includes(k));
  if (unknownKey !== undefined) throw new ConfigurationError(subject, `${subject} has retries with unknown option '${unknownKey}'; the options are attempts, backoffMs and maxBackoffMs.`);
  const { attempts, backoffMs = 200, maxBackoffMs = 10_000 } = value as Partial<Record<string, unknown>>;
  if (!isWhole(attempts, 1, 10)) throw new ConfigurationError(subject, `${subject} has retries.attempts ${describeKind(attempts)}: it must be a whole number from 1 to 10 (the first call included).`);
  if (!isWhole(backoffMs, 0, maxDelayMs)) throw new ConfigurationError(subject, `${subject} has retries.backoffMs ${describeKind(backoffMs)}: it must be a whole number of milliseconds from 0 to 2147483647.`);
  if (!isWhole(maxBackoffMs, 0, maxDelayMs)) throw new ConfigurationError(subject, `${subject} has retries.maxBackoffMs ${describeKind(maxBackoffMs)}: it must be a whole number of milliseconds from 0 to 2147483647.`);
  if ((maxBackoffMs as number) < (backoffMs as number)) {
    throw new ConfigurationError(subject, `${subject} has retries.maxBackoffMs ${maxBackoffMs as number} below retries.backoffMs ${backoffMs as number}: raise maxBackoffMs or lower backoffMs.`);
  }
  return Object.freeze({ attempts: attempts as number, backoffMs: backoffMs as number, maxBackoffMs: maxBackoffMs as number });
}

function isWhole(value: unknown, min: number, max: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}
