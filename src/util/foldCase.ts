/**
 * The text with every character replaced by one case-free form of the same length, so that texts
 * that differ only in letter case fold to the same text: "É" and "é"; "Σ", "σ" and "ς"; "K" and the
 * Kelvin sign. Characters whose case forms differ in length ("ß" and "SS", "İ" and "i̇") keep their
 * own form, so that every position in the folded text is the same position in `text`.
 */
export function foldCase(text: string): string {
  const upper = text.toUpperCase();
  const lower = upper.length === text.length ? upper.toLowerCase() : "";
  // No character changed length, so the whole-text mapping is the per-character one, except that
  // lower-casing picks "ς" or "σ" by position in the word.
  if (lower.length === text.length) return lower.replace(/ς/g, "σ");
  return text.replace(/[^\0-\x40\x5b-\x7f]/gu, foldCharacter);
}

function foldCharacter(character: string): string {
  // Lower-casing the upper-case form joins letters that share it ("ς" → "Σ" → "σ").
  const upper = character.toUpperCase();
  const oneCodePoint = upper.length === 1 || (upper.length === 2 && upper.codePointAt(0)! > 0xffff);
  const folded = oneCodePoint ? upper.toLowerCase() : character.toLowerCase();
  return folded.length === character.length ? folded : character;
}

/** `foldCase` of each text, done in one pass over the texts joined, which is faster than one call each. */
export function foldCaseOfEach(texts: readonly string[]): string[] {
  const folded = foldCase(texts.join("\n"));
  let at = 0;
  return texts.map((text) => folded.slice(at, (at += text.length + 1) - 1));
}
