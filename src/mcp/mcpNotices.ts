import { debuglog } from "node:util";

/** A log message an MCP server sent (`notifications/message`). */
export interface McpLogMessage {
  /** The toolset's name for the server. */
  readonly server: string;
  readonly level: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
  /** The part of the server that logged it, when the server says. */
  readonly logger?: string;
  /** What the server logged: any JSON value. */
  readonly data: unknown;
}

/** Something an McpToolset did on its own that its user should know: a tool left out, and why. */
export interface McpWarning {
  /**
   * `taskRequired`: the tool runs only as an MCP task, which toolwright does not run; `nameClash`:
   * the tool's model name is another tool's; `unusable`: the tool's name or schema cannot be used.
   */
  readonly code: "taskRequired" | "nameClash" | "unusable";
  /** The server's name for the tool. */
  readonly tool: string;
  /** One sentence: the toolset, the tool, what happened and the fix. */
  readonly message: string;
}

const debug = debuglog("toolwright-mcp");
// Enough of a log message's data to read it; a server may send megabytes.
const shownChars = 2000;

/** The default `onLog`: the debug channel (`NODE_DEBUG=toolwright-mcp`), not the console. */
export function logToDebug(message: McpLogMessage): void {
  if (!debug.enabled) return;
  let data: string;
  try {
    data = typeof message.data === "string" ? message.data : (JSON.stringify(message.data) ?? String(message.data));
  } catch {
    data = String(message.data);
  }
  if (data.length > shownChars) data = `${data.slice(0, shownChars)}… (${data.length} characters)`;
  debug("MCP server '%s' %s%s: %s", message.server, message.level, message.logger === undefined ? "" : ` (${message.logger})`, data);
}

/** The default `onWarning`: the debug channel (`NODE_DEBUG=toolwright-mcp`), not the console. */
export function warnToDebug(warning: McpWarning): void {
  debug("%s", warning.message);
}
