import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResultPart } from "../chat/chatMessage";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";

/**
 * A tool result's parts as MCP content blocks (spec 2025-11-25, what the SDK implements): text as
 * `text`, an image as `image` (base64 and MIME type), an audio file as `audio`, any other file as
 * an embedded `resource` with a `blob`, and an image or file given by URL as a `resource_link`.
 */
export function mcpContentBlocks(parts: readonly ToolResultPart[]): ContentBlock[] {
  return parts.map((part): ContentBlock => {
    if (part.type === "text") return { type: "text", text: part.text };
    const media = part.type === "image" ? part.image : part.file;
    const base64 = part.type === "image" ? part.image.base64Image : part.file.base64Data;
    const mimeType = media.mimeType;
    if (base64 === undefined) return { type: "resource_link", uri: media.url!, name: linkName(media), ...(mimeType !== undefined && { mimeType }) };
    if (part.type === "image") return { type: "image", data: base64, mimeType: mimeType! };
    if (mimeType?.startsWith("audio/")) return { type: "audio", data: base64, mimeType };
    return { type: "resource", resource: { uri: resourceUri(part.file), ...(mimeType !== undefined && { mimeType }), blob: base64 } };
  });
}

/**
 * A tool's return value as parts, when it holds images or files: an `ImageContent`, a
 * `FileContent`, or an array of them and strings. Undefined for any other value.
 */
export function mediaParts(value: unknown): ToolResultPart[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (!items.some((item) => ImageContent.isImageContent(item) || FileContent.isFileContent(item))) return undefined;
  if (!items.every((item) => typeof item === "string" || ImageContent.isImageContent(item) || FileContent.isFileContent(item))) return undefined;
  return items.map((item: string | ImageContent | FileContent): ToolResultPart => {
    if (typeof item === "string") return { type: "text", text: item };
    return ImageContent.isImageContent(item) ? { type: "image", image: item } : { type: "file", file: item };
  });
}

// An embedded resource needs a URI: the one the file came with from an MCP server, else one naming its content.
function resourceUri(file: FileContent): string {
  const uri = file.extra.uri;
  if (typeof uri === "string" && URL.canParse(uri)) return uri;
  const name = file.filename === undefined ? "" : `/${encodeURIComponent(file.filename)}`;
  return `toolwright://file/${file.describe().sha256}${name}`;
}

function linkName(media: ImageContent | FileContent): string {
  if (FileContent.isFileContent(media) && media.filename !== undefined) return media.filename;
  const last = new URL(media.url!).pathname.split("/").pop();
  return last || media.kind;
}
