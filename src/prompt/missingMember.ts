import type { CallExpression, FilterExpression, Identifier, MemberExpression, Statement } from "@huggingface/jinja/dist/ast";
import { PromptTemplateError } from "../errors";
import { describeTemplateValue, type TemplateValue } from "./templateValues";

const maxListedKeys = 20;
const maxDescribedLength = 80;

/**
 * A member expression (`customer.nmae`, `docs[5]`, `(messages|last).text`) read an attribute, key
 * or item that its value does not have, where nothing marked it optional.
 */
export function missingMember(template: string, node: MemberExpression, object: TemplateValue, key: unknown): PromptTemplateError {
  const expression = describeExpression(node);
  const owner = describeExpression(node.object);
  const optional = `or mark it optional with ${expression} | default('…')`;
  let problem: string;
  if (object.type === "UndefinedValue") {
    problem = `but ${owner} is undefined: check it first with {% if ${owner} is defined %}, ${optional}`;
  } else if (object.value instanceof Map) {
    const keys = [...(object.value as Map<string, unknown>).keys()];
    const listed = keys.length === 0 ? `${owner} is empty` : `${owner} has: ${keys.slice(0, maxListedKeys).map(clip).join(", ")}${keys.length > maxListedKeys ? ", …" : ""}`;
    problem = `but ${owner} has no ${node.computed ? "key" : "attribute"} '${clip(String(key))}': fix the name, ${optional}. ${listed}`;
  } else if (typeof key === "number" && (object.type === "ArrayValue" || object.type === "TupleValue" || object.type === "StringValue")) {
    const length = (object.value as { length: number }).length;
    const items = object.type === "StringValue" ? "characters" : "items";
    problem = `but ${owner} has ${length} ${length === 1 ? items.slice(0, -1) : items}: check its length first, ${optional}`;
  } else {
    problem = `but ${owner} is ${describeTemplateValue(object)}, which has no ${node.computed ? "item" : "attribute"} '${clip(String(key))}': fix the name, ${optional}`;
  }
  return new PromptTemplateError(template, `${template} template reads '${expression}', ${problem}.`);
}

/** An expression as the template wrote it, roughly and shortly: `customer.name`, `(messages|last).text`. */
export function describeExpression(node: Statement): string {
  const text = describe(node);
  return text.length > maxDescribedLength ? `${text.slice(0, maxDescribedLength - 1)}…` : text;
}

function describe(node: Statement): string {
  switch (node.type) {
    case "Identifier":
      return (node as Identifier).value;
    case "MemberExpression": {
      const { object, property, computed } = node as MemberExpression;
      return computed ? `${describe(object)}[${describeKey(property)}]` : `${describe(object)}.${String((property as Identifier).value)}`;
    }
    case "FilterExpression": {
      const { operand, filter } = node as FilterExpression;
      const name = filter.type === "CallExpression" ? describe((filter as CallExpression).callee) : (filter as Identifier).value;
      return `(${describe(operand)}|${name})`;
    }
    case "CallExpression":
      return `${describe((node as CallExpression).callee)}(…)`;
    case "StringLiteral":
      return JSON.stringify(clip((node as unknown as { value: string }).value));
    case "IntegerLiteral":
    case "FloatLiteral":
      return String((node as unknown as { value: number }).value);
    default:
      return "(expression)";
  }
}

function describeKey(property: Statement): string {
  return property.type === "SliceExpression" ? "…:…" : describe(property);
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
