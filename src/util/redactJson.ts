import { deepFreeze } from "./deepFreeze";
import { redactor } from "./redact";

type Hidden = ReadonlyArray<{ readonly label: string; readonly value: unknown }>;

/**
 * A deep-frozen copy of a JSON value in which every string (keys included) is redacted of the
 * hidden values as text, exactly as `redactValues` redacts an error message: a text that holds a
 * value escaped inside a JSON string (a tool result that is JSON) is covered the same way there as
 * here. A number whose digits are a hidden value becomes the redacted text.
 */
export function redactJson<T>(value: T, hidden: Hidden): T {
  return redactJsonWith(value, hidden.length === 0 ? undefined : redactor(hidden));
}

/** `redactJson` with a `redactor` made once for many values (undefined: nothing to redact, a frozen copy). */
export function redactJsonWith<T>(value: T, redact: ((text: string) => string) | undefined): T {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  const copy = JSON.parse(text) as unknown;
  return deepFreeze((redact ? redactLeaves(copy, redact) : copy) as T);
}

function redactLeaves(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value === "number") {
    const text = String(value);
    const redacted = redact(text);
    return redacted === text ? value : redacted;
  }
  if (Array.isArray(value)) return value.map((item) => redactLeaves(item, redact));
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, redact(key), { value: redactLeaves(item, redact), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}
