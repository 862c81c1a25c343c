import { ConfigurationError } from "../errors";
import { FileContent } from "../media/fileContent";
import { ImageContent } from "../media/imageContent";
import { mediaLimits } from "../media/mediaLimits";
import { describeMime, sniffMime } from "../media/sniffMime";
import { sniffAudio } from "./sniffAudio";

/** A piece of binary content of an MCP tool result, as the server sent it. */
export interface McpMediaBlock {
  /** An `image` or `audio` content block, or an embedded resource's `blob`. */
  readonly kind: "image" | "audio" | "blob";
  readonly data: unknown;
  readonly mimeType: string | undefined;
  /** The embedded resource's URI. */
  readonly uri?: string;
  /** Where in the result it is: `content[1]`, `content[0].resource.blob`. */
  readonly path: string;
}

/**
 * An image, audio or blob block of an MCP tool result as a content part: images (and blobs of an
 * image type) become `ImageContent`; audio and other blobs become `FileContent` with their MIME
 * type (toolwright has no audio part: a provider that takes audio reads the MIME type). The data is
 * checked as any part's is (valid base64, within `mediaLimits.maxPartBytes`, the MIME type
 * against the first bytes); data that fails is the server's fault and throws `fail` with the reason.
 */
export function mcpMediaPart(block: McpMediaBlock, fail: (reason: string) => Error): ImageContent | FileContent {
  const { data, uri } = block;
  const declared = typeof block.mimeType === "string" && block.mimeType !== "" ? block.mimeType.toLowerCase() : undefined;
  if (typeof data !== "string" || data === "") throw fail("has no base64 data");
  const bytes = Math.floor((data.replace(/=+$/, "").length * 3) / 4);
  if (bytes > mediaLimits.maxPartBytes) throw fail(`holds ${bytes} bytes, over the limit of ${mediaLimits.maxPartBytes} bytes per image or file`);
  if (data.length % 4 !== 0 || !base64Shape.test(data)) throw fail("is not valid base64 (standard alphabet, padded to a multiple of 4 characters)");
  const decoded = Buffer.from(data, "base64");
  const sniffed = sniffMime(decoded) ?? sniffAudio(decoded);
  const image = block.kind === "image" || (block.kind === "blob" && declared?.startsWith("image/") === true);
  if (block.kind === "image" && declared !== undefined && !declared.startsWith("image/")) throw fail(`has mimeType ${quoted(declared)}, which is not an image type`);
  if (block.kind === "audio" && !declared?.startsWith("audio/")) throw fail(declared === undefined ? "has no mimeType" : `has mimeType ${quoted(declared)}, which is not an audio type`);
  if (declared !== undefined && sniffed !== undefined && !sameType(declared, sniffed)) throw fail(`is declared ${quoted(declared)}, but its bytes are ${describeMime(sniffed)}`);
  const name = uri === undefined ? undefined : fileName(uri);
  try {
    if (image) return ImageContent.fromBase64(data, { ...(declared !== undefined && { mimeType: declared }), ...(uri !== undefined && { meta: { uri } }) });
    return FileContent.fromBase64(data, { ...(declared !== undefined && { mimeType: declared }), ...(name !== undefined && { filename: name }), ...(uri !== undefined && { extra: { uri } }) });
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // What is left: a type toolwright does not take (an image format no provider reads, a malformed MIME type).
    throw fail(`cannot be used: ${error.message.replace(/^(ImageContent|FileContent)\.fromBase64 /, "").replace(/\.$/, "")}`);
  }
}

// Standard base64 (RFC 4648 §4), padded; linear.
const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;

// Names of one format: what servers send for WAV, MP3, … besides the registered name.
const aliases: Readonly<Record<string, readonly string[]>> = {
  "image/jpeg": ["image/jpg"],
  "audio/wav": ["audio/x-wav", "audio/wave", "audio/vnd.wave"],
  "audio/mpeg": ["audio/mp3", "audio/mpeg3"],
  "audio/ogg": ["audio/opus", "audio/vorbis", "application/ogg"],
  "audio/flac": ["audio/x-flac"],
};

function sameType(declared: string, sniffed: string): boolean {
  return declared === sniffed || (aliases[sniffed]?.includes(declared) ?? false);
}

// The last segment of a resource's URI, when it makes a file name (`file:///tmp/a.pdf` → `a.pdf`).
function fileName(uri: string): string | undefined {
  const last = uri.replace(/[?#].*$/s, "").split("/").pop() ?? "";
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    return undefined;
  }
  return name !== "" && name.length <= mediaLimits.maxFilenameLength && !/[\u0000-\u001f/\\]/.test(name) ? name : undefined;
}

function quoted(mime: string): string {
  return JSON.stringify(mime.slice(0, 100));
}
