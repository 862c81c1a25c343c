const SHORT = 3;
const LONG = 8;
const BASE = 0x01000193;

/**
 * Which substrings of 3 and of 8 code units a text has, each hashed to one bit (about eight bits per
 * code unit of text). A needle with a substring the text lacks cannot occur in it: `mayOccur` rules
 * out nearly all needles that do not occur (8 code units tell apart even random base64) in time
 * linear in the needle, with no false "no".
 */
export class GramFilter {
  private readonly short: Int32Array;
  private readonly long: Int32Array;

  constructor(text: string) {
    // About eight bits per code unit, from 256: a short text (one string of a message) costs 64 bytes, not 16 KiB.
    let bits = 256;
    while (bits < text.length * 8) bits *= 2;
    this.short = filterOf(text, SHORT, bits);
    this.long = filterOf(text, LONG, bits);
  }

  /** False when `needle` cannot occur in the text. */
  mayOccur(needle: string): boolean {
    if (needle.length < SHORT) return true;
    const [filter, gram] = needle.length < LONG ? [this.short, SHORT] : [this.long, LONG];
    for (let at = 0; at + gram <= needle.length; at += gram) if (!has(filter, hashAt(needle, at, gram))) return false;
    return has(filter, hashAt(needle, needle.length - gram, gram));
  }
}

function filterOf(text: string, gram: number, bits: number): Int32Array {
  const filter = new Int32Array(bits >>> 5);
  if (text.length < gram) return filter;
  // A rolling hash: the first gram's, then drop the leading code unit and add the next one.
  const dropFactor = power(BASE, gram - 1);
  let hash = hashAt(text, 0, gram);
  for (let at = 0; ; at++) {
    const bit = mix(hash) & (bits - 1);
    filter[bit >>> 5] |= 1 << (bit & 31);
    if (at + gram >= text.length) return filter;
    hash = (Math.imul(hash - Math.imul(text.charCodeAt(at), dropFactor), BASE) + text.charCodeAt(at + gram)) | 0;
  }
}

function has(filter: Int32Array, hash: number): boolean {
  const bit = mix(hash) & (filter.length * 32 - 1);
  return (filter[bit >>> 5] & (1 << (bit & 31))) !== 0;
}

// The polynomial hash of text[at, at + gram), modulo 2^32.
function hashAt(text: string, at: number, gram: number): number {
  let hash = 0;
  for (let i = at; i < at + gram; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

function power(base: number, exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, base);
  return result;
}

function mix(hash: number): number {
  const mixed = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  return mixed ^ (mixed >>> 13);
}
