/**
 * What traces, events and hooks show of an image or a file instead of its bytes: its kind, MIME
 * type, size and SHA-256 (to tell two apart, or find one in storage), or its URL.
 */
export interface MediaDescriptor {
  readonly type: "image" | "file";
  readonly mimeType: string | undefined;
  /** Decoded size in bytes; undefined for a URL reference. */
  readonly bytes: number | undefined;
  /** Hex SHA-256 of the bytes; undefined for a URL reference. */
  readonly sha256: string | undefined;
  /** The URL of a URL reference (never a `data:` URL). */
  readonly url: string | undefined;
  /** A file's name. */
  readonly filename?: string;
}
