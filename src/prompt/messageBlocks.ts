import { PromptTemplateError } from "../errors";
import { type LexedTemplate, lineAt, type TemplateToken } from "./lexTemplate";

/** The roles a `{% message %}` block may have: Haystack's `ChatRole` values, in its order. */
export const messageRoles: readonly string[] = Object.freeze(["user", "system", "assistant", "tool"]);

/**
 * The filter a `{% message %}` block becomes. It holds a space, so no template can name it: only
 * `rewriteMessageBlocks` makes it.
 */
export const messageFilterName = "message block";

/** The filter Haystack main's `{% insert expression %}` tag becomes (also unnameable). */
export const insertFilterName = "insert messages";

/** The keyword argument that carries a block's line to the interpreter (also unnameable). */
export const messageLineKey = "message line";

const rewrittenEnds = new WeakSet<TemplateToken>();

/** Whether `token` is an `{% endmessage %}` that `rewriteMessageBlocks` rewrote (for the parser's errors). */
export function isRewrittenEnd(token: TemplateToken | undefined): boolean {
  return token !== undefined && rewrittenEnds.has(token);
}

/** A `{% message %}` block as written: its line, and its role when the role is a literal. */
export interface MessageBlockTag {
  readonly line: number;
  readonly role: string | undefined;
}

/**
 * Rewrites Haystack's `{% message role=… name=… meta=… %}…{% endmessage %}` and main's
 * `{% insert expression %}` (the
 * `ChatMessageExtension` of `haystack/utils/jinja2_chat_extension.py`) into a `{% filter %}` block
 * over `messageFilterName` with the attributes as keyword arguments, which the interpreter turns
 * into a message. Checks here what Haystack's parser checks (`role` first and required, a literal
 * role among `messageRoles`, `name` a string literal, `meta` a dict literal), and what it lets
 * through but no message can be built from: a block inside a block, an `{% endmessage %}` with no
 * block open. Errors name the template and the tag's line.
 */
export function rewriteMessageBlocks(lexed: LexedTemplate, name: string): { lexed: LexedTemplate; blocks: readonly MessageBlockTag[]; inserts: number } {
  const { tokens, offsets, source } = lexed;
  const out: TemplateToken[] = [];
  const outOffsets: number[] = [];
  const blocks: MessageBlockTag[] = [];
  let open: number | undefined;
  let inserts = 0;
  const fail = (problem: string): PromptTemplateError => new PromptTemplateError(name, `${name} template ${problem}.`);
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    const keyword = token.type === "OpenStatement" && tokens[i + 1]?.type === "Identifier" ? tokens[i + 1]!.value : undefined;
    if (keyword === "insert") {
      // Haystack main's `{% insert messages %}`: `{{ (messages) | insert }}`, the messages' markers printed in place.
      const line = lineAt(source, offsets[i]!);
      let close = i + 2;
      while (close < tokens.length && tokens[close]!.type !== "CloseStatement") close++;
      if (close >= tokens.length) throw fail(`ends (on line ${lineAt(source, source.length)}) inside the {% insert %} tag opened on line ${line}: close the tag with %}`);
      if (close === i + 2) throw fail(`has an {% insert %} tag on line ${line} without an expression: write {% insert messages %} (or messages[-1:], previous + current) for a ChatMessage or a list of them`);
      out.push({ type: "OpenExpression", value: "{{" }, { type: "OpenParen", value: "(" }, ...tokens.slice(i + 2, close), { type: "CloseParen", value: ")" }, { type: "Pipe", value: "|" }, { type: "Identifier", value: insertFilterName }, { type: "CloseExpression", value: "}}" });
      outOffsets.push(offsets[i]!, offsets[i]!, ...offsets.slice(i + 2, close), offsets[close]!, offsets[close]!, offsets[close]!, offsets[close]!);
      inserts++;
      i = close + 1;
      continue;
    }
    if (keyword !== "message" && keyword !== "endmessage") {
      out.push(token);
      outOffsets.push(offsets[i]!);
      i++;
      continue;
    }
    const line = lineAt(source, offsets[i]!);
    if (keyword === "endmessage") {
      if (open === undefined) throw fail(`has {% endmessage %} on line ${line} with no {% message %} block open: remove it, or open the block with {% message role="user" %}`);
      if (tokens[i + 2]?.type !== "CloseStatement") throw fail(`has {% endmessage %} on line ${line} with more inside the tag: write {% endmessage %} alone`);
      const end = { type: "Identifier", value: "endfilter" };
      rewrittenEnds.add(end);
      out.push(token, end, tokens[i + 2]!);
      outOffsets.push(offsets[i]!, offsets[i + 1]!, offsets[i + 2]!);
      open = undefined;
      i += 3;
      continue;
    }
    if (open !== undefined) {
      throw fail(`opens a {% message %} block on line ${line} inside the one opened on line ${open}: message blocks do not nest; close the first with {% endmessage %} before opening the next`);
    }
    let close = i + 2;
    while (close < tokens.length && tokens[close]!.type !== "CloseStatement") close++;
    if (close >= tokens.length) throw fail(`ends (on line ${lineAt(source, source.length)}) inside the {% message %} tag opened on line ${line}: close the tag with %}`);
    const attributes = splitAttributes(tokens, i + 2, close);
    if (attributes[0]?.key !== "role") {
      throw fail(`has a {% message %} tag on line ${line} that does not start with its role: write {% message role="user" %} (role is one of ${messageRoles.join(", ")}, then optionally name="…" and meta={…})`);
    }
    const empty = attributes.find((attribute) => attribute.key !== undefined && attribute.start >= attribute.end);
    if (empty) throw fail(`has a {% message %} tag on line ${line} that gives ${empty.key} no value: write ${empty.key}=… with a value`);
    const [role, ...rest] = attributes;
    const literalRole = role.end - role.start === 1 && tokens[role.start]!.type === "StringLiteral" ? tokens[role.start]!.value : undefined;
    if (literalRole !== undefined && !messageRoles.includes(literalRole)) {
      throw fail(`has a {% message %} block on line ${line} with role '${literalRole}': the role must be one of ${messageRoles.join(", ")}`);
    }
    checkOptional(rest, tokens, (problem) => fail(`has a {% message %} tag on line ${line} ${problem}`));
    blocks.push({ line, role: literalRole });
    open = line;
    out.push(token, { type: "Identifier", value: "filter" }, { type: "Identifier", value: messageFilterName }, { type: "OpenParen", value: "(" });
    outOffsets.push(offsets[i]!, offsets[i + 1]!, offsets[i + 1]!, offsets[i + 1]!);
    attributes.forEach((attribute, index) => {
      if (index > 0) {
        out.push({ type: "Comma", value: "," });
        outOffsets.push(offsets[attribute.keyAt]!);
      }
      for (let t = attribute.keyAt; t < attribute.end; t++) {
        out.push(tokens[t]!);
        outOffsets.push(offsets[t]!);
      }
    });
    out.push({ type: "Comma", value: "," }, { type: "Identifier", value: messageLineKey }, { type: "Equals", value: "=" }, { type: "NumericLiteral", value: String(line) });
    out.push({ type: "CloseParen", value: ")" }, tokens[close]!);
    for (let t = 0; t < 6; t++) outOffsets.push(offsets[close]!);
    i = close + 1;
  }
  if (open !== undefined) {
    throw fail(`opens a {% message %} block on line ${open} that is never closed: end it with {% endmessage %}`);
  }
  return { lexed: { source, tokens: out, offsets: outOffsets }, blocks, inserts };
}

/** The tokens of one `key=value` attribute: the key at `keyAt`, the value from `start` to `end`. */
interface Attribute {
  readonly key: string | undefined;
  readonly keyAt: number;
  readonly start: number;
  readonly end: number;
}

// Splits `role=… name=… meta=…` where a known key and `=` start a new attribute outside brackets
// (where Jinja's parser, having read one expression, would look for the next key).
function splitAttributes(tokens: readonly TemplateToken[], from: number, to: number): Attribute[] {
  const attributes: Attribute[] = [];
  let depth = 0;
  let keyAt = from;
  // Outside brackets, `name =` can only start an attribute (`==` is another token).
  const startsAttribute = (t: number): boolean => depth === 0 && tokens[t]!.type === "Identifier" && tokens[t + 1]?.type === "Equals";
  const finish = (end: number): void => {
    const keyed = tokens[keyAt]?.type === "Identifier" && tokens[keyAt + 1]?.type === "Equals";
    attributes.push({ key: keyed ? tokens[keyAt]!.value : undefined, keyAt, start: keyed ? keyAt + 2 : keyAt, end });
  };
  for (let t = from; t < to; t++) {
    if (t > keyAt + 1 && startsAttribute(t)) {
      finish(t);
      keyAt = t;
    }
    const type = tokens[t]!.type;
    if (type === "OpenParen" || type === "OpenSquareBracket" || type === "OpenCurlyBracket") depth++;
    else if (type === "CloseParen" || type === "CloseSquareBracket" || type === "CloseCurlyBracket") depth--;
  }
  if (to > from) finish(to);
  return attributes;
}

// Haystack takes `name` then `meta`, each at most once; `name` a string literal, `meta` a dict literal.
function checkOptional(rest: readonly Attribute[], tokens: readonly TemplateToken[], fail: (problem: string) => PromptTemplateError): void {
  const order = rest.map((attribute) => attribute.key ?? "?").join(",");
  if (!["", "name", "meta", "name,meta"].includes(order)) {
    throw fail(`with attributes ${rest.map((attribute) => attribute.key ?? "(unnamed)").join(", ")} after role: only name="…" and then meta={…} may follow the role`);
  }
  for (const attribute of rest) {
    if (attribute.key === "name" && !(attribute.end - attribute.start === 1 && tokens[attribute.start]!.type === "StringLiteral")) {
      throw fail(`whose name is not a string: write name="…" with a literal string`);
    }
    if (attribute.key === "meta" && !(tokens[attribute.start]?.type === "OpenCurlyBracket" && closes(tokens, attribute.start, attribute.end))) {
      throw fail(`whose meta is not a dictionary: write meta={"key": value, …}`);
    }
  }
}

// Whether the bracket opened at `start` closes at the last token before `end`.
function closes(tokens: readonly TemplateToken[], start: number, end: number): boolean {
  let depth = 0;
  for (let t = start; t < end; t++) {
    const type = tokens[t]!.type;
    if (type === "OpenParen" || type === "OpenSquareBracket" || type === "OpenCurlyBracket") depth++;
    else if (type === "CloseParen" || type === "CloseSquareBracket" || type === "CloseCurlyBracket") depth--;
    if (depth === 0) return t === end - 1;
  }
  return false;
}
