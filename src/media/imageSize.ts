import type { ImageContent } from "./imageContent";

/** An image's size in pixels. */
export interface PixelSize {
  readonly width: number;
  readonly height: number;
}

// A JPEG's frame header (SOF) follows its metadata segments, which are rarely over 64 KB (EXIF,
// an embedded thumbnail): only that much is decoded, from the base64's start, to find it.
const jpegScanBytes = 64 * 1024;

/**
 * An image's width and height read from its header (PNG IHDR, GIF screen descriptor, JPEG SOF),
 * decoding only the first bytes of its base64; undefined for a URL reference, another format, or a
 * header that does not tell. Token counters use it for the providers' per-image formulas.
 */
export function imageSize(image: ImageContent): PixelSize | undefined {
  const base64 = image.base64Image;
  if (base64 === undefined) return undefined;
  if (image.mimeType === "image/png") return pngSize(head(base64, 24));
  if (image.mimeType === "image/gif") return gifSize(head(base64, 10));
  if (image.mimeType === "image/jpeg" || image.mimeType === "image/jpg") return jpegSize(head(base64, jpegScanBytes));
  return undefined;
}

// The first `bytes` bytes (or fewer) of standard base64, decoded without touching the rest.
function head(base64: string, bytes: number): Buffer {
  return Buffer.from(base64.slice(0, Math.ceil(bytes / 3) * 4), "base64");
}

function pngSize(bytes: Buffer): PixelSize | undefined {
  if (bytes.length < 24 || bytes.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return sized(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

function gifSize(bytes: Buffer): PixelSize | undefined {
  return bytes.length < 10 ? undefined : sized(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

// Walks the segments from the start of image: each is FF, a marker, and a big-endian length.
function jpegSize(bytes: Buffer): PixelSize | undefined {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return sized(bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

function sized(width: number, height: number): PixelSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}
