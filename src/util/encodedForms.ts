/**
 * The forms of `text` that are matched in any letter case, one at a time: itself, escaped inside a
 * JSON string once and twice, and URL-encoded (`encodeURIComponent`, that with `+` for a space, and
 * `URLSearchParams`' form encoding).
 */
export function* textForms(text: string): Generator<string> {
  yield text;
  if (/["\\\0-\x1f]|\p{Cs}/u.test(text)) {
    const once = jsonEscaped(text);
    yield once;
    yield jsonEscaped(once);
  }
  // Text of only these characters is its own URL encoding; encodeURIComponent rejects unpaired surrogates.
  if (!/[^\w.*-]/.test(text) || /\p{Cs}/u.test(text)) return;
  const component = encodeURIComponent(text);
  const plus = component.replace(/%20/g, "+");
  const form = plus.replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  yield component;
  if (plus !== component) yield plus;
  if (form !== plus) yield form;
}

/**
 * The base64 forms of each text (of its UTF-8 bytes), in the standard alphabet: base64url text is
 * matched against them after `toStandardBase64`. They are the encoding of the text alone, with and
 * without padding, and for each of the three byte alignments the text can have inside longer data,
 * the characters that depend on the text's bytes alone. Returns undefined, building nothing, when
 * they would come to more than `maxChars` characters.
 */
export function base64Forms(texts: readonly string[], maxChars: number): string[][] | undefined {
  const lengths = texts.map((text) => Buffer.byteLength(text, "utf8"));
  let chars = 0;
  for (const length of lengths) {
    if (length % 3 !== 0) chars += 4 * Math.ceil(length / 3) + Math.ceil((4 * length) / 3);
    for (let offset = 0; offset < 3; offset++) {
      const [from, to] = insideCharacters(offset, length);
      chars += to - from;
    }
  }
  if (chars > maxChars) return undefined;

  // Every text is written three times into one buffer, once at each alignment, with zero bytes
  // between the copies: each form is then a slice of one encoding of the whole buffer.
  const starts: number[] = [];
  let size = 0;
  for (const length of lengths) {
    for (let offset = 0; offset < 3; offset++) {
      starts.push(ceilToThree(size) + offset);
      size = ceilToThree(size) + offset + length;
    }
  }
  const bytes = Buffer.alloc(ceilToThree(size));
  texts.forEach((text, i) => {
    for (let offset = 0; offset < 3; offset++) bytes.write(text, starts[3 * i + offset]!, "utf8");
  });
  const encoded = bytes.toString("base64");
  return lengths.map((length, i) => {
    // Followed by zero bytes, the text alone encodes as an encoder pads it, short of the "=".
    const alone = (4 * starts[3 * i]!) / 3;
    const unpadded = encoded.slice(alone, alone + Math.ceil((4 * length) / 3));
    const forms = [unpadded.padEnd(4 * Math.ceil(length / 3), "="), unpadded];
    for (let offset = 0; offset < 3; offset++) forms.push(encoded.slice(...insideCharacters(starts[3 * i + offset]!, length)));
    // A text of a multiple of three bytes has no padding, and all its characters are its own.
    return length % 3 === 0 ? forms.slice(2) : forms;
  });
}

/** The text with base64url's `-` and `_` mapped to standard base64's `+` and `/`, keeping every position. */
export function toStandardBase64(text: string): string {
  return text.replace(/[-_]/g, (c) => (c === "-" ? "+" : "/"));
}

// The base64 characters that encode bytes [start, start + length) and no others: character i
// encodes bits 6i to 6i + 5.
function insideCharacters(start: number, length: number): [from: number, to: number] {
  return [Math.ceil((8 * start) / 6), Math.floor((8 * (start + length)) / 6)];
}

function ceilToThree(n: number): number {
  return Math.ceil(n / 3) * 3;
}

function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
