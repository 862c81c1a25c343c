import type { JsonSchema } from "../tools/jsonSchema";
import { shortName } from "./importContext";

/** A Haystack state type as JSON Schema, and the classes it names that only became `{ type: object }`. */
export interface ConvertedType {
  readonly schema: JsonSchema;
  /** Dotted class names written as plain objects (`haystack.dataclasses.document.Document`). */
  readonly classes: readonly string[];
  /** Whether it is a list of `ChatMessage`. */
  readonly chatMessages: boolean;
}


/**
 * A type string as Haystack's `serialize_type` writes it (`str`, `int`, `list[str]`,
 * `typing.Optional[int]`, `dict[str, int]`, `str | None`, `list[haystack.dataclasses.chat_message.ChatMessage]`,
 * `typing.Literal['a', 'b']`) as JSON Schema, or undefined for a string it cannot read. A class
 * (`Document`, `ChatMessage`) becomes `{ type: object }` and is listed in `classes`.
 */
export function haystackTypeToJsonSchema(text: string): ConvertedType | undefined {
  const classes: string[] = [];
  const schema = convert(text.trim(), classes, 0);
  if (schema === undefined) return undefined;
  const chatMessages = (schema as { type?: unknown }).type === "array" && classes.length === 1 && shortName(classes[0]!) === "ChatMessage";
  return { schema, classes, chatMessages };
}

function convert(text: string, classes: string[], depth: number): JsonSchema | undefined {
  if (depth > 20 || text === "") return undefined;
  const alternatives = splitTop(text, "|");
  if (alternatives.length > 1) return anyOf(alternatives.map((part) => convert(part.trim(), classes, depth + 1)));
  const open = text.indexOf("[");
  const name = (open < 0 ? text : text.slice(0, open)).replace(/^typing\./, "");
  if (open >= 0 && !text.endsWith("]")) return undefined;
  const args = open < 0 ? [] : splitTop(text.slice(open + 1, -1), ",").map((part) => part.trim());
  switch (name) {
    case "str":
      return { type: "string" };
    case "int":
      return { type: "integer" };
    case "float":
      return { type: "number" };
    case "bool":
      return { type: "boolean" };
    case "None":
    case "NoneType":
      return { type: "null" };
    case "Any":
      return {};
    case "list":
    case "List":
    case "Sequence":
    case "set":
    case "Set": {
      if (args.length === 0) return { type: "array" };
      const items = convert(args[0]!, classes, depth + 1);
      return items === undefined ? undefined : { type: "array", items };
    }
    case "dict":
    case "Dict":
    case "Mapping": {
      if (args.length < 2) return { type: "object" };
      const values = convert(args[1]!, classes, depth + 1);
      return values === undefined ? undefined : { type: "object", additionalProperties: values };
    }
    case "Optional":
      return args.length === 1 ? anyOf([convert(args[0]!, classes, depth + 1), { type: "null" }]) : undefined;
    case "Union":
      return anyOf(args.map((part) => convert(part, classes, depth + 1)));
    case "Literal": {
      const values = args.map(literal);
      return values.every((value) => value !== undefined) ? { enum: values as (string | number | boolean)[] } : undefined;
    }
    default:
      if (!/^[A-Za-z_][\w.]*$/.test(name) || open >= 0) return undefined;
      classes.push(name);
      return { type: "object" };
  }
}

function anyOf(parts: (JsonSchema | undefined)[]): JsonSchema | undefined {
  if (parts.some((part) => part === undefined)) return undefined;
  const types = parts.map((part) => (part as { type?: unknown }).type);
  // Primitive alternatives are one `type` list, as codegen writes `string | null`.
  if (parts.every((part, i) => Object.keys(part!).length === 1 && typeof types[i] === "string")) return { type: types as string[] };
  return { anyOf: parts as JsonSchema[] };
}

function literal(text: string): string | number | boolean | undefined {
  if (/^'(?:[^'\\]|\\.)*'$/.test(text) || /^"(?:[^"\\]|\\.)*"$/.test(text)) return text.slice(1, -1).replace(/\\(.)/g, "$1");
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (text === "True" || text === "False") return text === "True";
  return undefined;
}

// Splits at `separator` outside brackets and quotes.
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
