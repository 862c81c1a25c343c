import { ConfigurationError } from "../errors";
import { toJsonValue } from "../state/jsonCodec";
import { describeKind } from "../util/describeValue";
import type { OutputsToString } from "./toolOutputs";

/**
 * The text the model sees for a tool's result: `outputsToString` when given (`source` picks a
 * property, `handler` converts, `rawResult` sends a string as it is); otherwise a string result as
 * it is and anything else as JSON (`undefined` as `null`). Throws when there is no text form.
 */
export function toolResultText(result: unknown, config: OutputsToString | undefined): string {
  let value = result;
  if (config?.source !== undefined) {
    value = typeof value === "object" && value !== null && Object.hasOwn(value, config.source) ? (value as Record<string, unknown>)[config.source] : undefined;
  }
  if (config?.handler) value = config.handler(value);
  if (config?.rawResult) {
    if (typeof value !== "string") throw new ConfigurationError("outputsToString.rawResult", `outputsToString.rawResult needs a string, got ${describeKind(value)}; drop rawResult to send JSON`);
    return value;
  }
  if (typeof value === "string") return value;
  // Most results are strings or numbers: no walk for a finite number, a boolean or null.
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "boolean" || value === null) return JSON.stringify(value);
  return JSON.stringify(value === undefined ? null : toJsonValue(value, [], "return plain data, or give the tool an outputsToString handler"));
}

/**
 * Cuts a tool result's text to `maxChars` for the model, with a notice naming the tool and both
 * sizes; text within the limit is returned as is. State and `outputsToState` get the full value
 * elsewhere: only the conversation is capped.
 */
export function capResultText(text: string, toolName: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  // Never split a surrogate pair: half of one is not valid text for a provider.
  let end = maxChars;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}\n[Tool '${toolName}' returned ${count(text.length)} characters; the first ${count(end)} are shown]`;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
