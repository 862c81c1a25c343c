import { isValidToolName } from "../tools/toolName";

/**
 * The name the model sees for an MCP tool: the prefix, then the server's name with each character a
 * model provider refuses (anything but letters, digits, `_` and `-`: MCP allows `.` and `/`)
 * replaced by `_`. Undefined when that is still not a valid name (empty, or over 64 characters).
 */
export function modelToolName(prefix: string, serverName: string): string | undefined {
  const name = `${prefix}${serverName.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  return isValidToolName(name) ? name : undefined;
}
