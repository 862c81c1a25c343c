import { describeThrown, isError as isErrorValue } from "../util/thrownValue";

/**
 * An error as the developer's own process has it: name, message, stack and cause, NOT redacted
 * (`onToolError` gets it; traces and the model never do). Each text is cut at 16,384 characters,
 * and the chain of causes at 8.
 */
export interface ErrorDetails {
  /** The error's `name` (`TypeError`), or for a thrown value that is not an Error its kind (`string`, `object`). */
  readonly name: string;
  /** The error's `message` (for another thrown value, its string or JSON form). */
  readonly message: string;
  /** The stack as the error has it (its first line is `name: message`); undefined for a thrown value that is not an Error. */
  readonly stack: string | undefined;
  /** The error's `cause`, when it has one. */
  readonly cause: ErrorDetails | undefined;
}

const maxText = 16_384;
const maxCauses = 8;

/** The details of any thrown value, frozen; reading them never throws (a getter that throws, a cycle of causes). */
export function errorDetails(thrown: unknown): ErrorDetails {
  return detailsOf(thrown, new Set(), 0);
}

function detailsOf(thrown: unknown, seen: Set<unknown>, depth: number): ErrorDetails {
  seen.add(thrown);
  const isError = isErrorValue(thrown);
  const name = isError ? stringOf(() => (thrown as Error).name) ?? "Error" : thrown === null ? "null" : typeof thrown;
  // Read here, not by describeError: an Error of another realm (a vm context) is no `instanceof Error`.
  const message = cut((isError ? stringOf(() => (thrown as Error).message) || name : describeThrown(thrown)) ?? "(the error could not be described)");
  const stack = isError ? stringOf(() => (thrown as Error).stack) : undefined;
  let cause: ErrorDetails | undefined;
  const causeValue = isError ? read(() => (thrown as Error).cause) : undefined;
  if (causeValue !== undefined && !seen.has(causeValue) && depth + 1 < maxCauses) cause = detailsOf(causeValue, seen, depth + 1);
  return Object.freeze({ name, message, stack: stack === undefined ? undefined : cut(stack), cause });
}

function read(get: () => unknown): unknown {
  try {
    return get();
  } catch {
    return undefined;
  }
}

function stringOf(get: () => unknown): string | undefined {
  const value = read(get);
  return typeof value === "string" ? value : undefined;
}

function cut(text: string): string {
  return text.length <= maxText ? text : `${text.slice(0, maxText)}…(${text.length} characters)`;
}
