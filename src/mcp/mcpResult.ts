import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ProviderError } from "../errors";
import { describeKind } from "../util/describeValue";
import { nestingDepthExceeds } from "../util/jsonShape";
import { binaryPart, describeBinary, type McpBinaryPart, withoutBinary } from "./mcpBinary";

/** A tool result the MCP server marked `isError`: the tool ran and failed; its text goes to the model as an error result. */
export class McpToolError extends ProviderError {}

/**
 * An MCP tool's result as toolwright reads it: what the model gets (`output`), and the binary parts
 * that were kept out of it. A later model call that can take images can be given `binary`.
 */
export interface McpCallResult {
  /**
   * The `structuredContent` when the server sent one (JSON, so `outputsToState` can take keys of
   * it), else the content as text; binary data described (type, size), never inlined; cut at the
   * toolset's `maxResultChars` with a notice (then always text).
   */
  readonly output: string | Readonly<Record<string, unknown>>;
  /** Images, audio and blobs of the result, wherever the server put them, in the order found. */
  readonly binary: readonly McpBinaryPart[];
}

/** Where a result came from and how much of it the model may read. */
export interface McpResultLimits {
  readonly server: string;
  readonly tool: string;
  /** The most characters of text the model gets (`maxResultChars`). */
  readonly maxChars: number;
  /** The deepest `structuredContent` read (levels of objects and arrays; `limits.maxArgumentDepth`). */
  readonly maxDepth: number;
}

/**
 * What an MCP tool's result becomes for the Agent: its `structuredContent`, else its content as
 * text (text parts joined by newlines; other parts described). An `isError` result throws
 * McpToolError with that text.
 */
export function mcpCallResult(result: CallToolResult, limits: McpResultLimits): McpCallResult {
  const binary: McpBinaryPart[] = [];
  const text = contentText(result.content, binary);
  if (result.isError === true) throw new McpToolError(cut(text, limits) || `MCP server '${limits.server}' reported that tool '${limits.tool}' failed, without a message.`);
  const structured: unknown = result.structuredContent;
  if (typeof structured === "object" && structured !== null && !Array.isArray(structured)) {
    if (nestingDepthExceeds(structured, limits.maxDepth)) {
      throw new McpToolError(`MCP server '${limits.server}' answered tool '${limits.tool}' with structuredContent nested deeper than ${limits.maxDepth} levels, which toolwright does not read; the result is not used.`);
    }
    // The same data often comes in both places: it is kept once.
    const inContent = binary.splice(0);
    const described = withoutBinary(structured, "structuredContent", binary) as Record<string, unknown>;
    const seen = new Set(binary.map((part) => part.data));
    binary.push(...inContent.filter((part) => !seen.has(part.data)));
    const json = JSON.stringify(described);
    return Object.freeze({ output: json.length > limits.maxChars ? cut(json, limits) : described, binary: Object.freeze(binary) });
  }
  return Object.freeze({ output: cut(text, limits), binary: Object.freeze(binary) });
}

// A text longer than the limit ends at it, with a notice that says what was cut and which option sets it.
function cut(text: string, { server, tool, maxChars }: McpResultLimits): string {
  if (text.length <= maxChars) return text;
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  return `${text.slice(0, end)}\n[Cut: the result of tool '${tool}' from MCP server '${server}' has ${text.length} characters, more than maxResultChars (${maxChars}); the rest is not shown.]`;
}

function contentText(content: unknown, binary: McpBinaryPart[]): string {
  if (!Array.isArray(content)) return "";
  return content.map((part, index) => partText(part, `content[${index}]`, binary)).join("\n");
}

function partText(part: unknown, path: string, binary: McpBinaryPart[]): string {
  const item = (typeof part === "object" && part !== null ? part : {}) as Record<string, unknown>;
  const mimeType = typeof item.mimeType === "string" ? item.mimeType : undefined;
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? item.text : "";
    case "image":
    case "audio": {
      const found = binaryPart(item.type, mimeType, typeof item.data === "string" ? item.data : "", path);
      binary.push(found);
      return describeBinary(found);
    }
    case "resource": {
      const resource = (typeof item.resource === "object" && item.resource !== null ? item.resource : {}) as Record<string, unknown>;
      if (typeof resource.text === "string") return resource.text;
      const uri = typeof resource.uri === "string" ? resource.uri : undefined;
      const type = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
      if (typeof resource.blob === "string") {
        const found = binaryPart("blob", type, resource.blob, `${path}.resource.blob`, uri);
        binary.push(found);
        return describeBinary(found);
      }
      return `[resource ${uri ?? ""}${type ? ` (${type})` : ""}]`;
    }
    case "resource_link":
      return `[resource link ${String(item.uri ?? "")}${item.name ? `: ${String(item.name)}` : ""}${mimeType ? ` (${mimeType})` : ""}]`;
    default:
      return `[content of type ${describeKind(item.type)}]`;
  }
}
