import { base64Forms, textForms, toStandardBase64 } from "./encodedForms";
import { foldCase, foldCaseOfEach } from "./foldCase";
import { limits } from "./limits";
import { longestMatches } from "./longestMatches";
import type { Match } from "./needleAutomaton";
import { searchTexts } from "./searchTexts";

const WITHHELD = "[details withheld: the tool's injected values are too large to redact]";

/**
 * Replaces what `text` (a tool's error message, about to be sent to the model) reveals of the given
 * values with `[<label>]`.
 *
 * Covered:
 * - every string and number (bigint too) of three or more characters (UTF-16 code units) in a value,
 *   at any depth, also inside Maps, Sets and what `toJSON()` returns (a Date's ISO string):
 *   - as it is, and escaped inside a JSON string once or twice (inside a JSON string inside a JSON
 *     string), in any letter case (one-to-one case mappings: "É"/"é", "Σ"/"σ"/"ς");
 *   - URL-encoded by `encodeURIComponent`, with `+` for a space, or form-encoded as by
 *     `URLSearchParams`, with ASCII letters and hex digits in any case;
 *   - base64 and base64url of its UTF-8 bytes, alone (with or without padding) or inside longer
 *     base64 at any of the three byte alignments: there, the characters that encode its bytes alone
 *     (the one or two characters at each edge that also encode a neighbouring byte stay);
 * - the compact JSON (`JSON.stringify`) of each value and of every object and array in its first 8
 *   levels, in any letter case (deeper ones, and JSON escaped or encoded, are covered leaf by leaf).
 *
 * Not covered: values shorter than three characters (they carry too little to leak and would mangle
 * unrelated text); booleans, `null`, `NaN` and `Infinity`; other encodings (hex, HTML entities,
 * `\uXXXX` escapes of non-ASCII characters, base64 with line breaks, `encodeURI`); an encoding of an
 * encoding other than JSON twice (base64 of URL-encoded text, URL-encoded JSON); case mappings that
 * change length ("ß"/"SS"), and the URL encoding of a non-ASCII letter in another case; URL forms of
 * text with unpaired surrogates; pretty-printed JSON or JSON with other key order; numbers written
 * differently ("1,000", "1e3", "1000.0"); and anything the tool derives from a value (a hash, a part
 * of it, a reformatted date).
 *
 * Occurrences that overlap are replaced together, by the label of the longest; labels written are
 * never searched again. When the values exceed `limits.maxRedactedLeaves` or `limits.maxRedactionChars`, or cannot be read (a getter that
 * throws), the whole text is withheld. Takes time linear in the text and in the values.
 */
export function redactValues(text: string, values: ReadonlyArray<{ readonly label: string; readonly value: unknown }>): string {
  return redactor(values)(text);
}

/**
 * `redactValues` for many texts against the same values: the forms to search for are made once
 * (the costly part for large values), and each text is searched in time linear in its length.
 */
export function redactor(values: ReadonlyArray<{ readonly label: string; readonly value: unknown }>): (text: string) => string {
  const texts = searchTexts(
    values.map((v) => v.value),
    { maxLeaves: limits.maxRedactedLeaves, maxChars: limits.maxRedactionChars },
  );
  if (texts === undefined) return withheld;
  const anyCase: string[] = [];
  const anyCaseTags: number[] = [];
  const base64: string[] = [];
  const base64Tags: number[] = [];
  let budget = limits.maxRedactionChars;
  for (const [tag, { leaves, json }] of texts.entries()) {
    // Counted form by form, so that values far over the limit are not encoded in full first.
    const addAnyCase = (form: string): boolean => {
      anyCase.push(form);
      anyCaseTags.push(tag);
      return (budget -= form.length) >= 0;
    };
    for (const jsonText of json) if (!addAnyCase(jsonText)) return withheld;
    for (const leaf of leaves) for (const form of textForms(leaf)) if (!addAnyCase(form)) return withheld;
    const encoded = base64Forms(leaves, budget);
    if (encoded === undefined) return withheld;
    for (const forms of encoded) {
      for (const form of forms) {
        base64.push(form);
        base64Tags.push(tag);
        budget -= form.length;
      }
    }
  }
  const foldedAnyCase = foldCaseOfEach(anyCase);
  return (text) => {
    const matches = [...longestMatches(foldCase(text), foldedAnyCase, anyCaseTags), ...longestMatches(toStandardBase64(text), base64, base64Tags)];
    return replaceMatches(text, matches, (tag) => `[${values[tag]!.label}]`);
  };
}

function withheld(): string {
  return WITHHELD;
}

// Overlapping matches are merged into one replacement, labelled after the longest of them.
function replaceMatches(text: string, matches: Match[], label: (tag: number) => string): string {
  if (matches.length === 0) return text;
  matches.sort((a, b) => a.start - b.start);
  let out = "";
  let copied = 0;
  for (let i = 0; i < matches.length; ) {
    const first = matches[i]!;
    let end = first.end;
    let longest = first;
    for (i++; i < matches.length && matches[i]!.start < end; i++) {
      const match = matches[i]!;
      if (match.end - match.start > longest.end - longest.start) longest = match;
      end = Math.max(end, match.end);
    }
    out += text.slice(copied, first.start) + label(longest.tag);
    copied = end;
  }
  return out + text.slice(copied);
}
