import { deepFreeze } from "./deepFreeze";
import { redactValues } from "./redact";

type Hidden = ReadonlyArray<{ readonly label: string; readonly value: unknown }>;

/**
 * A deep-frozen copy of a JSON value with what it reveals of the hidden values replaced by
 * `[<label>]`, as `redactValues` does for text: the JSON text is redacted as a whole (so a value
 * written across several strings is still found), and read back. When a replacement breaks the
 * JSON (a hidden value that is itself a piece of JSON syntax), each key and leaf is redacted on its
 * own instead.
 */
export function redactJson<T>(value: T, hidden: Hidden): T {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  if (hidden.length === 0) return deepFreeze(JSON.parse(text) as T);
  try {
    return deepFreeze(JSON.parse(redactValues(text, hidden)) as T);
  } catch {
    return deepFreeze(redactLeaves(JSON.parse(text), hidden) as T);
  }
}

function redactLeaves(value: unknown, hidden: Hidden): unknown {
  if (typeof value === "string") return redactValues(value, hidden);
  if (typeof value === "number") {
    const text = String(value);
    const redacted = redactValues(text, hidden);
    return redacted === text ? value : redacted;
  }
  if (Array.isArray(value)) return value.map((item) => redactLeaves(item, hidden));
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) Object.defineProperty(copy, redactValues(key, hidden), { value: redactLeaves(item, hidden), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}
