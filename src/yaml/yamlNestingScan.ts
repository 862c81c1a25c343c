/**
 * The offset of the first collection that nests deeper than `maxDepth` levels (the top-level
 * mapping is level 1), found by reading the text once before it is parsed, or undefined.
 *
 * Why: the YAML parser takes time that grows faster than the text with nesting (a 1 MiB file of
 * `[` took ~20 s to refuse, or ran out of memory), so nesting is refused before the parser sees
 * it. The scan counts what can nest without bound on one line, flow collections (`[`, `{`) and
 * compact block entries (`- - -`), skipping quoted scalars, comments and block scalars (`|`, `>`)
 * as YAML does; it never counts a level that is not there, so a file it passes may still nest
 * too deep by indentation, which the parser reads quickly and `yamlToData` refuses at its path.
 */
export function deepNestingOffset(text: string, maxDepth: number): number | undefined {
  const length = text.length;
  let i = 0;
  let flow = 0; // open flow collections
  let flowTokenStart = false; // in a flow collection, where a new node may begin
  let compact = 0; // block entries ("- ", "? ") begun on this line
  let base = 0; // block levels on the line where the outermost flow collection began
  let nodeStart = true; // in block context, where a new node may begin
  let lineIndent = 0;
  let keyColumn = -1; // where this line's last plain key began (for a block scalar's parent)
  let dashColumn = -1;
  let blockScalar: { parent: number; content: number } | undefined;
  let quote: '"' | "'" | undefined;
  let lineStart = true;
  let lineBegin = 0;

  while (i < length) {
    const c = text[i]!;
    if (quote) {
      if (quote === '"' && c === "\\") i += 2;
      else if (c === quote && quote === "'" && text[i + 1] === "'") i += 2;
      else {
        if (c === quote) quote = undefined;
        i += 1;
      }
      continue;
    }
    if (c === "\n") {
      lineStart = true;
      i += 1;
      continue;
    }
    if (lineStart) {
      lineStart = false;
      lineBegin = i;
      let j = i;
      while (text[j] === " ") j += 1;
      const indent = j - i;
      const blank = j >= length || text[j] === "\n" || text[j] === "\r";
      if (blockScalar) {
        if (blank || (blockScalar.content < 0 ? indent > blockScalar.parent : indent >= blockScalar.content)) {
          if (!blank && blockScalar.content < 0) blockScalar.content = indent;
          i = lineEnd(text, j);
          continue;
        }
        blockScalar = undefined;
      }
      if (flow === 0) {
        nodeStart = true;
        compact = 0;
        lineIndent = indent;
        keyColumn = -1;
        dashColumn = -1;
      }
      i = j;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i += 1;
      continue;
    }
    if (c === "#" && (i === 0 || isSpace(text[i - 1]))) {
      i = lineEnd(text, i);
      continue;
    }
    if (flow > 0) {
      if (c === "[" || c === "{") {
        flow += 1;
        if (1 + base + flow > maxDepth) return i;
        flowTokenStart = true;
      } else if (c === "]" || c === "}") {
        flow -= 1;
        flowTokenStart = false;
        nodeStart = false;
      } else if (c === "," || c === "?" || c === ":") {
        flowTokenStart = true;
      } else if ((c === '"' || c === "'") && flowTokenStart) {
        quote = c;
        flowTokenStart = false;
      } else {
        flowTokenStart = false;
      }
      i += 1;
      continue;
    }
    if (nodeStart) {
      if (i === lineBegin && (text.startsWith("---", i) || text.startsWith("...", i)) && isSpaceOrEnd(text[i + 3])) {
        i += 3;
        continue;
      }
      if ((c === "-" || c === "?") && isSpaceOrEnd(text[i + 1])) {
        compact += 1;
        if (1 + compact > maxDepth) return i;
        dashColumn = i - lineBegin;
        i += 1;
        continue;
      }
      if (c === "[" || c === "{") {
        base = compact;
        flow = 1;
        flowTokenStart = true;
        if (1 + base + flow > maxDepth) return i;
        i += 1;
        continue;
      }
      if (c === '"' || c === "'") {
        quote = c;
        nodeStart = false;
        i += 1;
        continue;
      }
      if (c === "|" || c === ">") {
        blockScalar = { parent: keyColumn >= 0 ? keyColumn : dashColumn >= 0 ? dashColumn : lineIndent, content: -1 };
        i = lineEnd(text, i);
        continue;
      }
      if (c === "&" || c === "!") {
        while (i < length && !isSpace(text[i]) && text[i] !== "\n") i += 1;
        continue;
      }
      nodeStart = false;
      keyColumn = i - lineBegin;
    }
    if (c === ":" && isSpaceOrEnd(text[i + 1])) nodeStart = true;
    i += 1;
  }
  return undefined;
}

function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\r" || c === "\n";
}

function isSpaceOrEnd(c: string | undefined): boolean {
  return c === undefined || isSpace(c);
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end < 0 ? text.length : end;
}
