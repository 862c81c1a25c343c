/**
 * The MIME type the first bytes of `bytes` announce, for the formats models read (PNG, JPEG, GIF,
 * WebP, BMP, TIFF, PDF); undefined for anything else. A small table rather than a package: the
 * well-kept one (`file-type`) is ES-module only and loads hundreds of formats this needs none of.
 */
export function sniffMime(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  if (starts(0x42, 0x4d)) return "image/bmp";
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return "image/tiff";
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf";
  return undefined;
}

/** Names a MIME type for messages: `image/png` → `a PNG image`. */
export function describeMime(mime: string): string {
  const known: Record<string, string> = {
    "image/png": "a PNG image",
    "image/jpeg": "a JPEG image",
    "image/gif": "a GIF image",
    "image/webp": "a WebP image",
    "image/bmp": "a BMP image",
    "image/tiff": "a TIFF image",
    "application/pdf": "a PDF document",
  };
  return known[mime] ?? mime;
}
