import { skipString } from "./functionParameters";

/**
 * A tool's signature as its TypeScript source writes it: the parameter list and the return type,
 * `(amount: number, note?: string): Promise<string>`, with comments dropped and whitespace collapsed.
 * Codegen and the runtime read it with this same scanner (codegen at the position ts-morph gives,
 * the runtime at each place the tool's name is declared), so that only a change to the source, never
 * a difference between two readers, makes their hashes differ.
 */
export interface ToolSignature {
  /** The signature for messages: whitespace collapsed to single spaces. */
  readonly text: string;
  /** `signatureHash` of the text without any whitespace that formatting may move. */
  readonly hash: string;
}

/** The signature whose parameter list opens at `open` (a `(`), or undefined when the text there is not one. */
export function toolSignatureAt(source: string, open: number): ToolSignature | undefined {
  if (source[open] !== "(") return undefined;
  const close = matchingClose(source, open);
  if (close === undefined) return undefined;
  let end = close + 1;
  let i = skipSpace(source, end);
  if (source[i] === ":") {
    const typeEnd = returnTypeEnd(source, i + 1);
    if (typeEnd === undefined) return undefined;
    end = typeEnd;
  }
  const text = collapse(source.slice(open, end));
  return { text, hash: signatureHash(compact(text)) };
}

/**
 * Where the parameter lists of a tool named `member` may open in `source`: after the name of a method
 * (`member(`, `async member<T>(`, `static member(`) or, for a `defineTool` function (whose name the
 * runtime does not know), after any `defineTool(` and an optional `async function name`. Calls
 * (`x.member(`) are left out; other uses of the name are candidates too, and simply do not match a hash.
 */
export function toolSignatureCandidates(source: string, member: string, kind: "method" | "function"): number[] {
  if (kind === "method" && !/^[A-Za-z_$][\w$]*$/.test(member)) return [];
  const pattern =
    kind === "method"
      ? new RegExp(`(?<![\\w$.])${member.replace(/\$/g, "\\$")}\\s*(?:<[^()]*>\\s*)?\\(`, "g")
      : /(?<![\w$])defineTool\s*(?:<[^()]*>\s*)?\(\s*(?:async\s+)?(?:function\s*\*?\s*[\w$]*\s*)?(?:<[^()]*>\s*)?\(/g;
  const found: number[] = [];
  for (const match of source.matchAll(pattern)) found.push(match.index + match[0].length - 1);
  return found;
}

/** A short, stable hash of a signature (FNV-1a, 32 bits, as 8 hex digits): it only has to tell two versions of one signature apart. */
export function signatureHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

// Comments out, whitespace runs to one space, none just inside brackets.
function collapse(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      const end = skipString(text, i, ch);
      out += text.slice(i, end + 1);
      i = end;
    } else if (ch === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl - 1;
      out += " ";
    } else if (ch === "/" && text[i + 1] === "*") {
      const endComment = text.indexOf("*/", i + 2);
      i = endComment === -1 ? text.length : endComment + 1;
      out += " ";
    } else {
      out += /\s/.test(ch) ? " " : ch;
    }
  }
  return out.replace(/ {2,}/g, " ").replace(/([([{<]) /g, "$1").replace(/ ([)\]}>,])/g, "$1").replace(/,([)\]}>])/g, "$1").trim();
}

// Without the spaces formatting may add or remove (a space between two name characters stays).
function compact(text: string): string {
  return text.replace(/ (?![\w$])|(?<![\w$]) /g, "").replace(/;(?=[}])/g, "");
}

function skipSpace(source: string, at: number): number {
  let i = at;
  for (;;) {
    while (i < source.length && /\s/.test(source[i]!)) i++;
    if (source.startsWith("//", i)) {
      const nl = source.indexOf("\n", i);
      i = nl === -1 ? source.length : nl;
    } else if (source.startsWith("/*", i)) {
      const end = source.indexOf("*/", i + 2);
      i = end === -1 ? source.length : end + 2;
    } else {
      return i;
    }
  }
}

// The `)` that closes the `(` at `open`, skipping strings, template literals and comments.
function matchingClose(source: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'" || ch === "`") i = skipString(source, i, ch);
    else if (ch === "/" && (source[i + 1] === "/" || source[i + 1] === "*")) i = skipSpace(source, i) - 1;
    else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      depth--;
      if (depth === 0) return ch === ")" ? i : undefined;
    }
  }
  return undefined;
}

// The end of a return type starting at `at`: the `{` of a body, an `=>` of an arrow function, or a
// `;`, `,` or `)` at depth 0. A `{` where a type may start (after `:`, `|`, `&`, `<`, `,`, `=>`, `(`,
// `[`) is an object type, not the body.
function returnTypeEnd(source: string, at: number): number | undefined {
  let depth = 0;
  let expectType = true;
  for (let i = at; i < source.length; i++) {
    const ch = source[i]!;
    if (/\s/.test(ch)) continue;
    if (ch === "/" && (source[i + 1] === "/" || source[i + 1] === "*")) {
      i = skipSpace(source, i) - 1;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") {
      i = skipString(source, i, ch);
      expectType = false;
      continue;
    }
    if (depth === 0 && ((ch === "{" && !expectType) || ch === ";" || ch === "," || ch === ")" || (ch === "=" && source[i + 1] === ">" && !expectType))) return i;
    if (ch === "=" && source[i + 1] === ">") {
      i++;
      expectType = true;
    } else if (ch === "(" || ch === "[" || ch === "{" || ch === "<") {
      depth++;
      expectType = true;
    } else if (ch === ")" || ch === "]" || ch === "}" || ch === ">") {
      depth--;
      expectType = false;
      if (depth < 0) return undefined;
    } else {
      expectType = ch === "|" || ch === "&" || ch === ":" || ch === "," || ch === "?";
    }
  }
  return undefined;
}
