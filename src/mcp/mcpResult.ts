import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeKind } from "../util/describeValue";

/** A tool result the MCP server marked `isError`: the tool ran and failed; its text goes to the model as an error result. */
export class McpToolError extends Error {
  override readonly name = "McpToolError";
}

/**
 * What an MCP tool's result becomes for the Agent: its `structuredContent` when the server sent one
 * (JSON, so `outputsToState` can take keys of it), else its content as text (text parts joined by
 * newlines; other parts described, since a model reading tool text cannot see an image). An
 * `isError` result throws McpToolError with that text.
 */
export function mcpToolOutput(result: CallToolResult, server: string, tool: string): unknown {
  const text = contentText(result.content);
  if (result.isError === true) throw new McpToolError(text || `MCP server '${server}' reported that tool '${tool}' failed, without a message.`);
  const structured: unknown = result.structuredContent;
  if (typeof structured === "object" && structured !== null && !Array.isArray(structured)) return structured;
  return text;
}

function contentText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.map(partText).join("\n");
}

function partText(part: unknown): string {
  const item = (typeof part === "object" && part !== null ? part : {}) as Record<string, unknown>;
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? item.text : "";
    case "image":
    case "audio":
      return `[${item.type} ${String(item.mimeType ?? "")}, ${typeof item.data === "string" ? base64Bytes(item.data) : 0} bytes]`;
    case "resource": {
      const resource = (typeof item.resource === "object" && item.resource !== null ? item.resource : {}) as Record<string, unknown>;
      return typeof resource.text === "string" ? resource.text : `[resource ${String(resource.uri ?? "")}${resource.mimeType ? ` (${String(resource.mimeType)})` : ""}]`;
    }
    case "resource_link":
      return `[resource link ${String(item.uri ?? "")}${item.name ? `: ${String(item.name)}` : ""}]`;
    default:
      return `[content of type ${describeKind(item.type)}]`;
  }
}

// The size of base64 data: 3 bytes per 4 characters, less the '=' padding.
function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, "").length * 3) / 4);
}
