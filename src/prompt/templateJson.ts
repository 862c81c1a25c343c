import type { RenderBudget } from "./renderBudget";
import { stringTooLong, valueTooDeep } from "./renderErrors";
import { templateLimits } from "./templateLimits";
import type { TemplateValue } from "./templateValues";

/**
 * Jinja's `tojson` filter, as Haystack's templates get it: `json.dumps` with `sort_keys=True` and
 * the default `ensure_ascii=True`, then `<`, `>`, `&` and `'` escaped (`htmlsafe_json_dumps`);
 * `indent` puts each item on its own line. (`@huggingface/jinja`'s own `tojson` follows the
 * transformers chat templates instead: keys in order, non-ASCII kept.) Stops at
 * `maxOutputLength` characters and `maxValueDepth` levels, spending a step per value.
 */
export function templateJson(value: TemplateValue, indent: number | undefined, budget: RenderBudget, template: string): string {
  const parts: string[] = [];
  let length = 0;
  const write = (text: string): void => {
    length += text.length;
    if (length > templateLimits.maxOutputLength) throw stringTooLong(template, undefined);
    parts.push(text);
  };
  const newline = (depth: number): void => {
    const width = Math.max(0, indent ?? 0) * depth;
    if (length + width + 1 > templateLimits.maxOutputLength) throw stringTooLong(template, undefined);
    write(`\n${" ".repeat(width)}`);
  };
  const itemSeparator = indent === undefined ? ", " : ",";

  const walk = (item: TemplateValue, depth: number): void => {
    budget.spend(1);
    if (depth > templateLimits.maxValueDepth) throw valueTooDeep(template);
    switch (item.type) {
      case "StringValue":
        return write(jsonString(item.value as string));
      case "IntegerValue":
        return write(pythonInteger(item.value as number));
      case "FloatValue": {
        const number = item.value as number;
        return write(Number.isFinite(number) ? pythonFloat(number) : Number.isNaN(number) ? "NaN" : number > 0 ? "Infinity" : "-Infinity");
      }
      case "BooleanValue":
        return write(item.value ? "true" : "false");
      case "NullValue":
      case "UndefinedValue":
        return write("null");
      case "ArrayValue":
      case "TupleValue": {
        const items = item.value as TemplateValue[];
        if (items.length === 0) return write("[]");
        write("[");
        items.forEach((child, i) => {
          if (i > 0) write(itemSeparator);
          if (indent !== undefined) newline(depth + 1);
          walk(child, depth + 1);
        });
        if (indent !== undefined) newline(depth);
        return write("]");
      }
      case "ObjectValue":
      case "KeywordArgumentsValue":
      case "NamespaceValue": {
        const entries = [...(item.value as Map<string, TemplateValue>)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        if (entries.length === 0) return write("{}");
        write("{");
        entries.forEach(([key, child], i) => {
          if (i > 0) write(itemSeparator);
          if (indent !== undefined) newline(depth + 1);
          write(`${jsonString(key)}: `);
          walk(child, depth + 1);
        });
        if (indent !== undefined) newline(depth);
        return write("}");
      }
      default:
        throw new Error(`Object of type ${item.type === "FunctionValue" ? "function" : item.type} is not JSON serializable`);
    }
  };

  walk(value, 0);
  return parts.join("");
}

/** A float as Python's `repr` writes it: `1.0`, `0.5`, `1e-05`, `1e+16`, `nan`, `inf`. */
export function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = value.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  const text = String(value);
  return text.includes(".") ? text : `${text}.0`;
}

/** An integer as Python writes it: every digit, no exponent. */
export function pythonInteger(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  return Number.isInteger(value) ? BigInt(value).toString() : pythonFloat(value);
}

// JSON string escapes as Python's json.dumps(ensure_ascii=True) writes them, then Jinja's HTML-safe ones.
function jsonString(text: string): string {
  return `"${text.replace(/["\\\u0000-\u001f<>&'\u007f-\uffff]/g, escapeCharacter)}"`;
}

function escapeCharacter(char: string): string {
  const short = shortEscapes[char];
  if (short !== undefined) return short;
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

const shortEscapes: Readonly<Record<string, string>> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };
