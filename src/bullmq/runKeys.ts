import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";

/** Where a queue keeps its runs in Redis. */
export interface RunKeys {
  /** The run's record: a hash of its status, options, checkpoint, pause, result. */
  record(runId: string): string;
  /** The run's events: a Redis Stream. */
  events(runId: string): string;
  /** The channel on which cancel requests reach the workers. */
  readonly cancelChannel: string;
}

/** The Redis key prefix (`toolwright` unless given) and queue name make the keys of one queue's runs. */
export function runKeys(prefix: string, queueName: string): RunKeys {
  const base = `${prefix}:${queueName}`;
  return {
    record: (runId) => `${base}:run:${runId}`,
    events: (runId) => `${base}:run:${runId}:events`,
    cancelChannel: `${base}:cancel`,
  };
}

const runIdPattern = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A run id names Redis keys and BullMQ jobs, and often comes from a client (a URL, a header): 1–128
 * characters of letters, digits, `_` and `-`, so that it cannot reach another key or job.
 */
export function checkRunId(value: unknown, subject: string): string {
  if (typeof value === "string" && runIdPattern.test(value)) return value;
  throw new ConfigurationError(subject, `${subject} was given a run id that is not 1 to 128 characters of letters, digits, '_' and '-', got ${describeKind(value)}; use the id start() returned.`);
}

/** Checks a queue or prefix name given in options. */
export function checkName(value: unknown, fallback: string, subject: string, option: string): string {
  if (value === undefined) return fallback;
  if (typeof value === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(value)) return value;
  throw new ConfigurationError(subject, `${subject} has a ${option} that is not 1 to 64 characters of letters, digits, '_', '.' and '-', got ${describeKind(value)}.`);
}
