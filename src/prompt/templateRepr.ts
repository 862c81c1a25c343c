import type { RenderBudget } from "./renderBudget";
import { stringTooLong, valueTooDeep } from "./renderErrors";
import { pythonFloat, pythonInteger } from "./templateJson";
import { templateLimits } from "./templateLimits";
import type { TemplateValue } from "./templateValues";

/**
 * A value as Jinja prints it, which is Python's `str`: a string as itself, `True`, `None`, `1.0`,
 * and a list or mapping as Python's `repr` (`['a', 1]`, `{'k': None}`) — where
 * `@huggingface/jinja` would print JSON. Stops at `maxOutputLength` characters and `maxValueDepth`
 * levels, spending a step per value.
 */
export function templateText(value: TemplateValue, budget: RenderBudget, template: string): string {
  if (value.type === "StringValue") return value.value as string;
  let length = 0;
  const parts: string[] = [];
  const write = (text: string): void => {
    length += text.length;
    if (length > templateLimits.maxOutputLength) throw stringTooLong(template, undefined);
    parts.push(text);
  };
  const walk = (item: TemplateValue, depth: number): void => {
    budget.spend(1);
    if (depth > templateLimits.maxValueDepth) throw valueTooDeep(template);
    switch (item.type) {
      case "StringValue":
        return write(pythonString(item.value as string));
      case "ArrayValue":
      case "TupleValue": {
        const items = item.value as TemplateValue[];
        const tuple = item.type === "TupleValue";
        write(tuple ? "(" : "[");
        items.forEach((child, i) => {
          if (i > 0) write(", ");
          walk(child, depth + 1);
        });
        return write(tuple ? (items.length === 1 ? ",)" : ")") : "]");
      }
      case "ObjectValue":
      case "KeywordArgumentsValue":
      case "NamespaceValue": {
        write(item.type === "NamespaceValue" ? "<Namespace {" : "{");
        let first = true;
        for (const [key, child] of item.value as Map<string, TemplateValue>) {
          write(`${first ? "" : ", "}${pythonString(key)}: `);
          first = false;
          walk(child, depth + 1);
        }
        return write(item.type === "NamespaceValue" ? "}>" : "}");
      }
      default:
        return write(depth === 0 ? scalarText(item) : scalarRepr(item));
    }
  };
  walk(value, 0);
  return parts.join("");
}

/** What Jinja prints for a value that holds no other values: `True`, `None`, `1.0`, `` for undefined. */
export function scalarText(value: TemplateValue): string {
  return value.type === "UndefinedValue" ? "" : scalarRepr(value);
}

function scalarRepr(value: TemplateValue): string {
  switch (value.type) {
    case "StringValue":
      return pythonString(value.value as string);
    case "BooleanValue":
      return value.value ? "True" : "False";
    case "NullValue":
      return "None";
    case "IntegerValue":
      return pythonInteger(value.value as number);
    case "FloatValue":
      return pythonFloat(value.value as number);
    case "FunctionValue":
      return "<function>";
    default:
      return "Undefined";
  }
}

// Python's repr of a string: single quotes unless it holds ' and no ", escapes for backslash, the
// quote, \t \n \r, and characters Python does not print (controls, format characters, separators).
function pythonString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const pattern = quote === "'" ? singleQuoted : doubleQuoted;
  return `${quote}${text.replace(pattern, escapeCharacter)}${quote}`;
}

// Space is the one separator Python prints as itself.
const unprintable = String.raw`\\|[\t\n\r\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}`;
const singleQuoted = new RegExp(`'|${unprintable}`, "gu");
const doubleQuoted = new RegExp(`"|${unprintable}`, "gu");

function escapeCharacter(char: string): string {
  switch (char) {
    case "\\":
    case "'":
    case '"':
      return `\\${char}`;
    case "\t":
      return "\\t";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
  }
  const code = char.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}
