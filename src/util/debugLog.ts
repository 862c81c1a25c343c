import { debuglog, inspect } from "node:util";

/**
 * toolwright's debug log, Node's convention: written to stderr when `NODE_DEBUG` names the section
 * (`NODE_DEBUG=toolwright`), off by default. `toolwright/mcp` logs to its own section,
 * `toolwright-mcp` (`NODE_DEBUG=toolwright*` turns on both).
 */
export const debugLog = debuglog("toolwright");

const maxEntry = 32_768;

/**
 * A thrown value as the log shows it: `util.inspect`'s form (stack, own properties such as `code`,
 * causes), with control characters other than newline and tab escaped (an error's text may come
 * from a server and must not forge log lines or move the terminal's cursor), cut at 32,768 characters.
 */
export function inspectForLog(thrown: unknown): string {
  let text: string;
  try {
    text = inspect(thrown, { depth: 4, colors: false });
  } catch {
    try {
      text = String(thrown);
    } catch {
      text = "(the error could not be shown)";
    }
  }
  return escapeControls(text.length <= maxEntry ? text : `${text.slice(0, maxEntry)}…(${text.length} characters)`);
}

/** Escapes the control characters of a text, newline and tab excepted, as `\u001b`. */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
