import type { AnyRuntimeValue, ArrayValue, NamespaceValue, ObjectValue, StringValue } from "@huggingface/jinja/dist/runtime";

/** A value inside the interpreter (`@huggingface/jinja`'s runtime values). */
export type TemplateValue = AnyRuntimeValue;

/** A list, a mapping or a namespace: a value that holds other values. */
export type CompoundValue = ArrayValue | ObjectValue | NamespaceValue;

const compoundTypes = new Set(["ArrayValue", "TupleValue", "ObjectValue", "KeywordArgumentsValue", "NamespaceValue"]);

/** True for lists, tuples, mappings, keyword arguments and namespaces. */
export function isCompound(value: TemplateValue): value is CompoundValue {
  return compoundTypes.has(value.type);
}

/** True for a string value. */
export function isString(value: TemplateValue | undefined): value is StringValue {
  return value?.type === "StringValue";
}

/** True for an integer value. */
export function isInteger(value: TemplateValue | undefined): value is TemplateValue & { value: number } {
  return value?.type === "IntegerValue";
}

/** How many items or entries a compound value holds. */
export function itemCount(value: CompoundValue): number {
  return Array.isArray(value.value) ? value.value.length : value.value.size;
}

/** A value's kind in Jinja's words, for messages: `a string`, `a list`, `none`. */
export function describeTemplateValue(value: TemplateValue): string {
  switch (value.type) {
    case "StringValue":
      return "a string";
    case "IntegerValue":
    case "FloatValue":
      return "a number";
    case "BooleanValue":
      return "a boolean";
    case "ArrayValue":
      return "a list";
    case "TupleValue":
      return "a tuple";
    case "ObjectValue":
    case "KeywordArgumentsValue":
      return "a mapping";
    case "NamespaceValue":
      return "a namespace";
    case "FunctionValue":
      return "a function";
    case "NullValue":
      return "none";
    default:
      return "undefined";
  }
}
