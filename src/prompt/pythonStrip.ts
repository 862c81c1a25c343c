// Python's str.isspace() characters: JavaScript's trim() also strips U+FEFF and keeps U+001C–U+001F
// and U+0085, which Python strips.
const space = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/**
 * `text.strip()` as Python strips: the whitespace Haystack strips from a message block's text.
 * A loop rather than a `\s+$` expression, which backtracks quadratically over long runs of spaces.
 */
export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && space.test(text[start]!)) start++;
  while (end > start && space.test(text[end - 1]!)) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
