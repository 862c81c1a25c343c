import { ts } from "ts-morph";

/** What a `${number}` placeholder accepts, as the model would write it: a JSON number. */
const numberPattern = "-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?";
const bigintPattern = "-?(?:0|[1-9]\\d*)";
const maxDepth = 16;

/**
 * A regular expression (anchored) that accepts exactly the strings a template literal type, a
 * string literal, or a union of those accepts: `` `user_${string}` `` → `^user_.*$`, literal text
 * escaped, `${number}` a JSON number, unions an alternation. Undefined when a part cannot be
 * written as a pattern (`Uppercase<string>`, an object, …).
 */
export function templatePattern(type: ts.Type): string | undefined {
  const body = regexOf(type, 0);
  return body === undefined ? undefined : `^${body}$`;
}

/** True for a template literal type, or a union with one among string literals and other templates. */
export function isTemplateType(type: ts.Type): boolean {
  if (type.flags & ts.TypeFlags.TemplateLiteral) return true;
  if (!(type.flags & ts.TypeFlags.Union)) return false;
  const members = (type as ts.UnionType).types;
  return members.some((t) => t.flags & ts.TypeFlags.TemplateLiteral) && members.every((t) => t.flags & (ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringLiteral));
}

function regexOf(type: ts.Type, depth: number): string | undefined {
  if (depth > maxDepth) return undefined;
  const flags = type.flags;
  if (flags & ts.TypeFlags.String) return ".*";
  if (flags & ts.TypeFlags.Number) return numberPattern;
  if (flags & ts.TypeFlags.BigInt) return bigintPattern;
  if (flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral)) return escapeRegex(String((type as ts.LiteralType).value));
  if (flags & ts.TypeFlags.BigIntLiteral) {
    const value = (type as ts.BigIntLiteralType).value;
    return escapeRegex(`${value.negative ? "-" : ""}${value.base10Value}`);
  }
  if (flags & ts.TypeFlags.BooleanLiteral) return (type as { intrinsicName?: string }).intrinsicName === "true" ? "true" : "false";
  if (flags & ts.TypeFlags.Null) return "null";
  if (flags & ts.TypeFlags.Undefined) return "undefined";
  if (flags & ts.TypeFlags.TemplateLiteral) {
    const template = type as ts.TemplateLiteralType;
    let out = escapeRegex(template.texts[0] ?? "");
    for (let i = 0; i < template.types.length; i++) {
      const part = regexOf(template.types[i]!, depth + 1);
      if (part === undefined) return undefined;
      out += part + escapeRegex(template.texts[i + 1] ?? "");
    }
    return out;
  }
  if (flags & ts.TypeFlags.Union) {
    const parts = (type as ts.UnionType).types.map((t) => regexOf(t, depth + 1));
    if (parts.some((p) => p === undefined)) return undefined;
    const unique = [...new Set(parts as string[])].sort();
    return unique.length === 1 ? unique[0]! : `(?:${unique.join("|")})`;
  }
  return undefined;
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, (c) => `\\${c}`);
}
