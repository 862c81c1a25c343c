import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { mediaLimits } from "./mediaLimits";

// Standard base64 (RFC 4648 §4), padded: what Haystack and every provider read. Linear: a character
// class and a bounded tail, no nesting.
const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes standard base64, refusing anything else: `Buffer.from(text, "base64")` skips characters
 * it does not know, so a corrupted or hostile string would become other bytes without a word.
 * Whitespace is not allowed (Haystack's `b64decode(validate=True)` refuses it too).
 */
export function decodeBase64(subject: string, text: unknown): Buffer {
  if (typeof text !== "string") throw new ConfigurationError(subject, `${subject} needs base64 data as a string, got ${describeKind(text)}.`);
  // Checked before decoding: the decoded size is known from the length.
  const bytes = Math.floor((text.length * 3) / 4);
  if (bytes > mediaLimits.maxPartBytes + 2) throw tooBig(subject, bytes);
  if (text.length % 4 !== 0 || !base64Shape.test(text) || !canonicalTail(text)) {
    throw new ConfigurationError(subject, `${subject} was given data that is not valid base64 (standard alphabet A-Z a-z 0-9 + /, padded with = to a multiple of 4 characters, no whitespace or data: prefix); encode the bytes with Buffer.from(bytes).toString("base64").`);
  }
  return Buffer.from(text, "base64");
}

/** The error for data over `mediaLimits.maxPartBytes`. */
export function tooBig(subject: string, bytes: number): ConfigurationError {
  return new ConfigurationError(subject, `${subject} holds ${bytes} bytes, over the limit of ${mediaLimits.maxPartBytes} bytes per image or file; send a smaller or compressed one (providers refuse larger ones too).`);
}

// The bits the last character carries beyond the data must be zero (RFC 4648 §3.5): otherwise two
// strings decode to the same bytes, and a part's hash and size would not be of the base64 it sends.
function canonicalTail(text: string): boolean {
  if (text.endsWith("==")) return "AQgw".includes(text.at(-3)!);
  if (text.endsWith("=")) return "AEIMQUYcgkosw048".includes(text.at(-2)!);
  return true;
}
