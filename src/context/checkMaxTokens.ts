import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import type { TokenCounter } from "./tokenCounter";

/** Throws a ConfigurationError unless `value` is a whole number ≥ `min`; returns it. */
export function checkCount(subject: string, option: string, value: unknown, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new ConfigurationError(subject, `${subject} needs ${option} as a whole number ≥ ${min}, got ${typeof value === "number" ? String(value) : describeKind(value)}.`, { optionPath: [option] });
  }
  return value;
}

/** Throws a ConfigurationError unless `value` is undefined or has a `count` method; returns it. */
export function checkCounter(subject: string, value: unknown): TokenCounter | undefined {
  if (value !== undefined && (typeof value !== "object" || value === null || typeof (value as TokenCounter).count !== "function")) {
    throw new ConfigurationError(subject, `${subject} needs counter as a TokenCounter (an object with a count(message) method), got ${describeKind(value)}.`, { optionPath: ["counter"] });
  }
  return value as TokenCounter | undefined;
}
