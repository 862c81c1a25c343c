/** A piece of binary data an MCP server sent in a tool result, kept out of the text the model reads. */
export interface McpBinaryPart {
  /** An image or audio part, or a blob (an embedded resource's, or base64 found in `structuredContent`). */
  readonly kind: "image" | "audio" | "blob";
  /** The MIME type the server gave, when it gave one. */
  readonly mimeType: string | undefined;
  /** The size of the decoded data in bytes. */
  readonly bytes: number;
  /** The data, base64 as the server sent it. */
  readonly data: string;
  /** The URI of an embedded resource's blob. */
  readonly uri?: string;
  /** Where in the result it was: `content[1]`, `structuredContent.content[0].data`. */
  readonly path: string;
}

/** The text that stands for a binary part where the model would have read its data. */
export function describeBinary(part: Pick<McpBinaryPart, "kind" | "mimeType" | "bytes" | "uri">): string {
  const what = part.kind === "blob" ? "binary data" : part.kind;
  return `[${what}${part.mimeType ? ` ${part.mimeType}` : ""}${part.uri ? ` ${part.uri}` : ""}, ${part.bytes} bytes]`;
}

// Strings at least this long that are padded base64 with upper- and lower-case letters and digits
// (as encoded bytes always are) are taken for binary data; shorter ones may be words or ids, and
// text of one kind of character ("xxxx…", a hex digest) is not base64 data.
const minimumBase64Length = 512;
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

function looksLikeBase64(value: string): boolean {
  return value.length >= minimumBase64Length && value.length % 4 === 0 && base64.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value);
}
const dataUri = /^data:([^;,]*)(?:;[^,]*)?;base64,/;

/**
 * `structuredContent` with its binary data replaced by descriptions, and the data found: the
 * `data` or `blob` of an object that has a `mimeType` or is an image or audio part (the filesystem
 * server's `read_media_file` repeats its content there), `data:` URIs, and long base64 strings.
 */
export function withoutBinary(value: unknown, path: string, found: McpBinaryPart[]): unknown {
  if (typeof value === "string") return binaryString(value, path, found) ?? value;
  if (Array.isArray(value)) return value.map((item, index) => withoutBinary(item, `${path}[${index}]`, found));
  if (typeof value !== "object" || value === null) return value;
  const object = value as Record<string, unknown>;
  const kind = object.type === "image" || object.type === "audio" ? object.type : "blob";
  const typed = kind !== "blob" || typeof object.mimeType === "string";
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) {
    const where = `${path}.${key}`;
    if (typed && (key === "data" || key === "blob") && typeof item === "string") {
      const part = binaryPart(kind, typeof object.mimeType === "string" ? object.mimeType : undefined, item, where, typeof object.uri === "string" ? object.uri : undefined);
      found.push(part);
      out[key] = describeBinary(part);
    } else {
      out[key] = withoutBinary(item, where, found);
    }
  }
  return out;
}

/** A binary part of a tool result, with its decoded size. */
export function binaryPart(kind: McpBinaryPart["kind"], mimeType: string | undefined, data: string, path: string, uri?: string): McpBinaryPart {
  return Object.freeze({ kind, mimeType, bytes: base64Bytes(data), data, path, ...(uri !== undefined && { uri }) });
}

function binaryString(value: string, path: string, found: McpBinaryPart[]): string | undefined {
  const uri = dataUri.exec(value);
  if (uri) {
    const part = binaryPart("blob", uri[1] || undefined, value.slice(uri[0].length), path);
    found.push(part);
    return describeBinary(part);
  }
  if (!looksLikeBase64(value)) return undefined;
  const part = binaryPart("blob", undefined, value, path);
  found.push(part);
  return describeBinary(part);
}

// The size of base64 data: 3 bytes per 4 characters, less the '=' padding.
function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, "").length * 3) / 4);
}
