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
