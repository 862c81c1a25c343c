import { UIRequestError } from "./uiRequestError";

/**
 * Refuses (413) UIMessages holding more than `maxParts` parts or more than `maxChars` characters of
 * strings and keys together; walked without recursion, and stopped as soon as a bound is passed, so a
 * huge body costs no more than the bound.
 */
export function checkUIRequestSize(messages: readonly unknown[], maxChars: number, maxParts: number): void {
  let parts = 0;
  for (const message of messages) {
    const list = typeof message === "object" && message !== null ? (message as { parts?: unknown }).parts : undefined;
    if (Array.isArray(list)) parts += list.length;
  }
  if (parts > maxParts) throw new UIRequestError(413, `Chat request holds ${parts} message parts, over the limit of ${maxParts}; start a new chat or keep the history on the server.`, { path: "messages" });
  let chars = 0;
  const stack: unknown[] = [messages];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") chars += value.length;
    else if (typeof value === "object" && value !== null) {
      for (const key of Object.keys(value)) {
        chars += key.length + 1;
        stack.push((value as Record<string, unknown>)[key]);
      }
    } else chars += 1;
    if (chars > maxChars) throw new UIRequestError(413, `Chat request holds more than ${maxChars} characters, the limit; send large files as http(s) URLs, or fewer of them.`, { path: "messages" });
  }
}
