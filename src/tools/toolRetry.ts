import type { Tool } from "./tool";
import { toolInternals } from "./tool";

/**
 * Whether a failed attempt of `tool` may run again: the tool has retries left and either says it is
 * idempotent (`idempotent: true`, or `annotations.idempotentHint`) or the error says it is
 * retryable (`error.retryable === true`).
 */
export function mayRetry(tool: Tool, attempt: number, error: unknown): boolean {
  const retries = toolInternals(tool).limits.retries;
  if (!retries || attempt >= retries.attempts) return false;
  if (isIdempotent(tool)) return true;
  return typeof error === "object" && error !== null && (error as { retryable?: unknown }).retryable === true;
}

/** Whether calling `tool` twice with the same arguments does no more than calling it once. */
export function isIdempotent(tool: Tool): boolean {
  return toolInternals(tool).limits.idempotent ?? tool.annotations?.idempotentHint ?? false;
}

/**
 * The wait before attempt `attempt + 1`: `backoffMs` doubled per retry up to `maxBackoffMs`, then
 * jittered to between half and all of it, so that many calls failing at once do not retry at once.
 */
export function retryDelay(tool: Tool, attempt: number, random: () => number = Math.random): number {
  const { backoffMs, maxBackoffMs } = toolInternals(tool).limits.retries!;
  const ceiling = Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

