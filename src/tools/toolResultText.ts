import { ConfigurationError } from "../errors";
import { toJsonValue } from "../state/jsonCodec";
import { describeKind } from "../util/describeValue";
import type { ContentInput } from "../chat/chatMessage";
import type { OutputsToString } from "./toolOutputs";

/**
 * The text the model sees for a tool's result: `outputsToString` when given (`source` picks a
 * property, `handler` converts, `rawResult` sends a string as it is); otherwise a string result as
 * it is and anything else as JSON (`undefined` as `null`). Throws when there is no text form.
 */
export function toolResultText(result: unknown, config: OutputsToString | undefined): string {
  return valueText(resultValue(result, config), config?.rawResult === true);
}

/** The value `outputsToString` picks from a result: its `source` property, through its `handler`; the result itself without them. */
export function resultValue(result: unknown, config: OutputsToString | undefined): unknown {
  let value = result;
  if (config?.source !== undefined) {
    value = typeof value === "object" && value !== null && Object.hasOwn(value, config.source) ? (value as Record<string, unknown>)[config.source] : undefined;
  }
  if (config?.handler) value = config.handler(value);
  return value;
}

/** The text of a picked value: a string as it is, anything else as JSON; with `raw`, only a string (or a list of parts, which the caller handles first). */
export function valueText(value: unknown, raw: boolean): string {
  if (raw) {
    if (typeof value !== "string") throw new ConfigurationError("outputsToString.rawResult", `outputsToString.rawResult needs a string or an array of strings, ImageContent and FileContent, got ${describeKind(value)}; drop rawResult to send JSON`);
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
  const end = safeEnd(text, maxChars);
  return `${text.slice(0, end)}\n[Tool '${toolName}' returned ${count(text.length)} characters; the first ${count(end)} are shown]`;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * Cuts the text parts of a result with media to `maxChars` characters together, as `capResultText`
 * cuts text: the part that crosses the limit is cut and ends with the notice, later text parts are
 * left out; images and files stay (`mediaLimits` bounds them). Parts within the limit are returned as they are.
 */
export function capResultParts(parts: readonly ContentInput[], toolName: string, maxChars: number): readonly ContentInput[] {
  let total = 0;
  for (const part of parts) if (typeof part === "string") total += part.length;
  if (total <= maxChars) return parts;
  const capped: ContentInput[] = [];
  let left = maxChars;
  let cut = false;
  for (const part of parts) {
    if (typeof part !== "string") capped.push(part);
    else if (cut) continue;
    else if (part.length <= left) {
      capped.push(part);
      left -= part.length;
    } else {
      const end = safeEnd(part, left);
      capped.push(`${part.slice(0, end)}\n[Tool '${toolName}' returned ${count(total)} characters of text; the first ${count(maxChars - left + end)} are shown]`);
      cut = true;
    }
  }
  return capped;
}

// Never split a surrogate pair: half of one is not valid text for a provider.
function safeEnd(text: string, end: number): number {
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
