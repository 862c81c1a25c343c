import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ProviderError } from "../errors";
import { describeKind } from "../util/describeValue";
import { nestingDepthExceeds } from "../util/jsonShape";
import type { FileContent } from "../media/fileContent";
import type { ImageContent } from "../media/imageContent";
import { mediaLimits } from "../media/mediaLimits";
import { binaryPart, describeBinary, type McpBinaryPart, withoutBinary } from "./mcpBinary";
import { type McpMediaBlock, mcpMediaPart } from "./mcpMediaPart";

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
  /**
   * A result whose content holds an image, audio or an embedded resource's blob: its content
   * blocks in order, text as strings (resource links and text resources as text naming their
   * URI), images as `ImageContent`, audio and other blobs as `FileContent`, text cut at
   * `maxResultChars`. What the model is given; undefined for a result without media.
   */
  readonly parts?: readonly (string | ImageContent | FileContent)[];
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
  const parts = binary.length === 0 ? undefined : contentParts(result.content as unknown[], limits);
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
    return Object.freeze({ output: json.length > limits.maxChars ? cut(json, limits) : described, binary: Object.freeze(binary), ...(parts && { parts }) });
  }
  return Object.freeze({ output: cut(text, limits), binary: Object.freeze(binary), ...(parts && { parts }) });
}

// The content blocks as parts: media checked (a block that fails is the server's fault, named with
// where it is), text within maxChars in all, the images and files within a message's limit.
function contentParts(content: readonly unknown[], limits: McpResultLimits): ReadonlyArray<string | ImageContent | FileContent> {
  const { server, tool } = limits;
  const parts: Array<string | ImageContent | FileContent> = [];
  let chars = 0;
  let bytes = 0;
  let cutDone = false;
  content.forEach((block, index) => {
    const item = (typeof block === "object" && block !== null ? block : {}) as Record<string, unknown>;
    const resource = item.type === "resource" && typeof item.resource === "object" && item.resource !== null ? (item.resource as Record<string, unknown>) : undefined;
    const media: McpMediaBlock | undefined = item.type === "image" || item.type === "audio" ? { kind: item.type, data: item.data, mimeType: stringOr(item.mimeType), path: `content[${index}]` } : resource && typeof resource.text !== "string" && resource.blob !== undefined ? { kind: "blob", data: resource.blob, mimeType: stringOr(resource.mimeType), path: `content[${index}].resource.blob`, ...(typeof resource.uri === "string" && { uri: resource.uri }) } : undefined;
    if (media) {
      const what = media.kind === "blob" ? "an embedded resource" : `an ${media.kind} block`;
      const part = mcpMediaPart(media, (reason) => new McpToolError(`MCP server '${server}' answered tool '${tool}' with ${what} at ${media.path} that ${reason}; the result is not used.`));
      bytes += part.byteLength;
      if (bytes > mediaLimits.maxMessageBytes) {
        throw new McpToolError(`MCP server '${server}' answered tool '${tool}' with more than ${mediaLimits.maxMessageBytes} bytes of images and files (the limit per message) by ${media.path}; the result is not used.`);
      }
      parts.push(part);
      return;
    }
    if (cutDone) return;
    const text = partText(block, `content[${index}]`, []);
    if (chars + text.length <= limits.maxChars) {
      chars += text.length;
      parts.push(text);
      return;
    }
    cutDone = true;
    let end = limits.maxChars - chars;
    if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    parts.push(`${text.slice(0, end)}\n[Cut: the text of tool '${tool}' from MCP server '${server}' is over maxResultChars (${limits.maxChars}); the rest of it is not shown, its images and files are.]`);
  });
  return Object.freeze(parts);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
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
