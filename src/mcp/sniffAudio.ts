/**
 * The audio format the first bytes of `bytes` announce (WAV, MP3, Ogg, FLAC), as a MIME type;
 * undefined for anything else. Beside `sniffMime` (images and PDF), for MCP's audio blocks.
 */
export function sniffAudio(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x41 && bytes[10] === 0x56 && bytes[11] === 0x45) return "audio/wav";
  if (starts(0x49, 0x44, 0x33) || (bytes[0] === 0xff && bytes[1] !== undefined && (bytes[1] & 0xe6) === 0xe2)) return "audio/mpeg";
  if (starts(0x4f, 0x67, 0x67, 0x53)) return "audio/ogg";
  if (starts(0x66, 0x4c, 0x61, 0x43)) return "audio/flac";
  return undefined;
}
