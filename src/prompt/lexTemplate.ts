/** A token as `@huggingface/jinja`'s parser reads it: its `TOKEN_TYPES` name and its text. */
export interface TemplateToken {
  value: string;
  type: string;
}

/** The tokens of a template, with the offset in `source` where each one starts. */
export interface LexedTemplate {
  /** The source after Jinja's newline handling (`\r\n` and `\r` become `\n`; one trailing `\n` dropped). */
  readonly source: string;
  readonly tokens: TemplateToken[];
  readonly offsets: number[];
}

/** A template that cannot be split into tokens; `line` (1-based) is where lexing stopped. */
export class TemplateLexError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * Splits a template into tokens exactly as `@huggingface/jinja` 0.5.11's `tokenize(source, {
 * lstrip_blocks: false, trim_blocks: false })` does (Jinja's defaults), with two differences:
 * newlines are normalised as Jinja does (`\r\n`, `\r` → `\n`, then one trailing newline dropped),
 * and the transformers-only `{% generation %}` tag is not rewritten away. That rewrite is a regular
 * expression that takes quadratic time on runs of whitespace (100,000 spaces took seconds), which
 * an untrusted template must not be able to buy; without it the lexer is linear. Jinja has no such
 * tag, so `{% generation %}` stays an unknown statement, as in Jinja.
 */
export function lexTemplate(input: string): LexedTemplate {
  let src = input.replace(/\r\n?/g, "\n");
  if (src.endsWith("\n")) src = src.slice(0, -1);
  const tokens: TemplateToken[] = [];
  const offsets: number[] = [];
  let cursor = 0;
  let curlyBracketDepth = 0;

  const fail = (message: string, at: number): TemplateLexError => new TemplateLexError(message, lineAt(src, at));

  const push = (value: string, type: string, at: number): void => {
    tokens.push({ value, type });
    offsets.push(at);
  };

  const consumeWhile = (predicate: (char: string) => boolean): string => {
    let str = "";
    while (predicate(src[cursor]!)) {
      if (src[cursor] === "\\") {
        ++cursor;
        if (cursor >= src.length) throw fail("Unexpected end of input", cursor);
        const escaped = src[cursor++]!;
        if (escaped === "x" || escaped === "u") {
          const length = escaped === "x" ? 2 : 4;
          const hex = src.slice(cursor, cursor + length);
          if (hex.length !== length || /[^0-9a-f]/i.test(hex)) throw fail(`Invalid hexadecimal escape sequence: \\${escaped}${hex}`, cursor);
          str += String.fromCharCode(parseInt(hex, 16));
          cursor += length;
          continue;
        }
        const unescaped = escapeCharacters.get(escaped);
        if (unescaped === undefined) throw fail(`Unexpected escaped character: ${escaped}`, cursor - 1);
        str += unescaped;
        continue;
      }
      str += src[cursor++];
      if (cursor >= src.length) throw fail("Unexpected end of input", cursor);
    }
    return str;
  };

  const stripTrailingWhitespace = (): void => {
    const last = tokens.at(-1);
    if (last && last.type === "Text") {
      last.value = last.value.trimEnd();
      if (last.value === "") {
        tokens.pop();
        offsets.pop();
      }
    }
  };

  const skipLeadingWhitespace = (): void => {
    while (cursor < src.length && isWhitespace(src[cursor]!)) ++cursor;
  };

  main: while (cursor < src.length) {
    const lastType = tokens.at(-1)?.type;
    if (lastType === undefined || lastType === "CloseStatement" || lastType === "CloseExpression" || lastType === "Comment") {
      const end = nextTagStart(src, cursor);
      if (end > cursor) {
        push(src.slice(cursor, end), "Text", cursor);
        cursor = end;
        continue;
      }
    }

    const start = cursor;
    if (src[cursor] === "{" && src[cursor + 1] === "#") {
      cursor += 2;
      const stripBefore = src[cursor] === "-";
      if (stripBefore) ++cursor;
      const close = src.indexOf("#}", cursor);
      if (close < 0) throw fail("Missing end of comment tag", start);
      let comment = src.slice(cursor, close);
      const stripAfter = comment.endsWith("-");
      if (stripAfter) comment = comment.slice(0, -1);
      if (stripBefore) stripTrailingWhitespace();
      push(comment, "Comment", start);
      cursor = close + 2;
      if (stripAfter) skipLeadingWhitespace();
      continue;
    }

    if (src.startsWith("{%-", cursor)) {
      stripTrailingWhitespace();
      push("{%", "OpenStatement", start);
      cursor += 3;
      continue;
    }
    if (src.startsWith("{{-", cursor)) {
      stripTrailingWhitespace();
      push("{{", "OpenExpression", start);
      curlyBracketDepth = 0;
      cursor += 3;
      continue;
    }

    consumeWhile(isWhitespace);
    const at = cursor;

    if (src.startsWith("-%}", cursor)) {
      push("%}", "CloseStatement", at);
      cursor += 3;
      skipLeadingWhitespace();
      continue;
    }
    if (src.startsWith("-}}", cursor)) {
      push("}}", "CloseExpression", at);
      cursor += 3;
      skipLeadingWhitespace();
      continue;
    }

    const char = src[cursor]!;
    if (char === "-" || char === "+") {
      const previous = tokens.at(-1)?.type;
      if (previous === "Text" || previous === undefined) throw fail(`Unexpected character: ${char}`, at);
      if (!binaryOperandEnds.has(previous)) {
        ++cursor;
        let num = consumeWhile(isInteger);
        if (num.length > 0 && src[cursor] === "." && isInteger(src[cursor + 1]!)) {
          ++cursor;
          num = `${num}.${consumeWhile(isInteger)}`;
        }
        push(`${char}${num}`, num.length > 0 ? "NumericLiteral" : "UnaryOperator", at);
        continue;
      }
    }

    for (const [seq, type] of orderedMappingTable) {
      if (seq === "}}" && curlyBracketDepth > 0) continue;
      if (src.startsWith(seq, cursor)) {
        push(seq, type, at);
        if (type === "OpenExpression") curlyBracketDepth = 0;
        else if (type === "OpenCurlyBracket") ++curlyBracketDepth;
        else if (type === "CloseCurlyBracket") --curlyBracketDepth;
        cursor += seq.length;
        continue main;
      }
    }

    if (char === "'" || char === '"') {
      ++cursor;
      const str = consumeWhile((c) => c !== char);
      push(str, "StringLiteral", at);
      ++cursor;
      continue;
    }

    if (isInteger(char)) {
      let num = consumeWhile(isInteger);
      if (tokens.at(-1)?.type !== "Dot" && src[cursor] === "." && isInteger(src[cursor + 1]!)) {
        ++cursor;
        num = `${num}.${consumeWhile(isInteger)}`;
      }
      push(num, "NumericLiteral", at);
      continue;
    }
    if (isWord(char)) {
      push(consumeWhile(isWord), "Identifier", at);
      continue;
    }

    throw fail(`Unexpected character: ${char}`, at);
  }

  return { source: src, tokens, offsets };
}

/** The 1-based line of `offset` in `source`. */
export function lineAt(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf("\n"); i >= 0 && i < offset; i = source.indexOf("\n", i + 1)) line++;
  return line;
}

// The next `{%`, `{{` or `{#` at or after `from`, else the end.
function nextTagStart(src: string, from: number): number {
  for (let i = src.indexOf("{", from); i >= 0; i = src.indexOf("{", i + 1)) {
    const next = src[i + 1];
    if (next === "%" || next === "{" || next === "#") return i;
  }
  return src.length;
}

// The package tests single characters with these regular expressions; `undefined` (past the end)
// is tested as the text "undefined", which is a word: kept, since consumeWhile relies on its
// end-of-input check rather than on the predicate failing.
function isWord(char: string): boolean {
  return /\w/.test(char);
}

function isInteger(char: string): boolean {
  return /[0-9]/.test(char);
}

function isWhitespace(char: string): boolean {
  return /\s/.test(char);
}

// After one of these, `-` and `+` are binary operators (`a - 1`); elsewhere they are unary (`(-1)`).
const binaryOperandEnds = new Set(["Identifier", "NumericLiteral", "StringLiteral", "CloseParen", "CloseSquareBracket"]);

const orderedMappingTable: readonly (readonly [string, string])[] = [
  ["{%", "OpenStatement"],
  ["%}", "CloseStatement"],
  ["{{", "OpenExpression"],
  ["}}", "CloseExpression"],
  ["(", "OpenParen"],
  [")", "CloseParen"],
  ["{", "OpenCurlyBracket"],
  ["}", "CloseCurlyBracket"],
  ["[", "OpenSquareBracket"],
  ["]", "CloseSquareBracket"],
  [",", "Comma"],
  [".", "Dot"],
  [":", "Colon"],
  ["|", "Pipe"],
  ["<=", "ComparisonBinaryOperator"],
  [">=", "ComparisonBinaryOperator"],
  ["==", "ComparisonBinaryOperator"],
  ["!=", "ComparisonBinaryOperator"],
  ["<", "ComparisonBinaryOperator"],
  [">", "ComparisonBinaryOperator"],
  ["+", "AdditiveBinaryOperator"],
  ["-", "AdditiveBinaryOperator"],
  ["~", "AdditiveBinaryOperator"],
  ["**", "ExponentiationBinaryOperator"],
  ["*", "MultiplicativeBinaryOperator"],
  ["//", "MultiplicativeBinaryOperator"],
  ["/", "MultiplicativeBinaryOperator"],
  ["%", "MultiplicativeBinaryOperator"],
  ["=", "Equals"],
];

const escapeCharacters = new Map([
  ["n", "\n"],
  ["t", "\t"],
  ["r", "\r"],
  ["b", "\b"],
  ["f", "\f"],
  ["v", "\v"],
  ["'", "'"],
  ['"', '"'],
  ["\\", "\\"],
]);
