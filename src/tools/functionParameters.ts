/**
 * The parameter names of a function as its source text has them (`(query, limit = 5, state)` →
 * `["query", "limit", "state"]`; a destructuring pattern is `"{…}"`). Undefined when the text has
 * no parameter list to read (a native or bound function).
 */
export function functionParameterNames(fn: (...args: never[]) => unknown): string[] | undefined {
  const source = Function.prototype.toString.call(fn);
  if (/\{\s*\[native code\]\s*\}\s*$/.test(source)) return undefined;
  const open = source.indexOf("(");
  const arrow = source.indexOf("=>");
  if (open === -1 || (arrow !== -1 && arrow < open)) {
    const single = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(source);
    return single ? [single[1]!] : undefined;
  }
  const list = topLevelParameterList(source, open);
  if (list === undefined) return undefined;
  return list.map((raw) => {
    // Comments may precede a name; what follows the name (types are gone, defaults stay) is not read.
    const text = raw.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ").trim().replace(/^\.\.\./, "");
    const name = /^[A-Za-z_$][\w$]*/.exec(text);
    return name ? name[0] : "{…}";
  });
}

// Splits the text between the parenthesis at `open` and its match on top-level commas, skipping
// strings, template literals, comments and nested brackets.
function topLevelParameterList(source: string, open: number): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      i = skipString(source, i, ch);
    } else if (ch === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i === -1) return undefined;
    } else if (ch === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      if (i === 0) return undefined;
    } else if (ch === "(" || ch === "[" || ch === "{") {
      depth += 1;
    } else if (ch === ")" || ch === "]" || ch === "}") {
      depth -= 1;
      if (depth === 0) {
        const last = source.slice(start, i);
        if (last.trim() !== "" || parts.length > 0) parts.push(last);
        return parts;
      }
    } else if (ch === "," && depth === 1) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `at` (escapes skipped), or the source's length. */
export function skipString(source: string, at: number, quote: string): number {
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === "\\") i += 1;
    else if (source[i] === quote) return i;
  }
  return source.length;
}
