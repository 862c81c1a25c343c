import { ChatMessage } from "../chat/chatMessage";
import { PromptTemplateError } from "../errors";
import { toJsonValue } from "../state/jsonCodec";
import { formatPath } from "../util/formatPath";
import { isPlainObject } from "../util/isPlainObject";
import { setOwn } from "../util/ownProperty";
import { formatCount } from "./renderErrors";
import { templateLimits } from "./templateLimits";

/** Counts the values converted for one render, against `templateLimits.maxContextValues`. */
export interface DataCounter {
  count: number;
}

/**
 * A variable's value as plain data for the interpreter, which must never hold a function (a
 * template could call it) or a class instance (its prototype): strings, finite and other numbers,
 * booleans, null; arrays and plain objects, copied; a `ChatMessage` as its `toJSON()` dict plus
 * `text` (its text, or null) and `role`, so `(messages|last).text` works as in Haystack; a `Date`
 * as its ISO string; a `Map` with string keys as an object, a `Set` as an array; a bigint as a
 * number (a string beyond 2^53); any other object as its JSON form (`toJsonValue`). Inside a value,
 * functions and symbols are dropped (null in arrays), as JSON drops them. Throws a
 * `PromptTemplateError` naming the variable for a function or symbol at the top, a circular
 * value, or one nested deeper than `maxValueDepth` or larger than `maxContextValues`.
 */
export function templateData(value: unknown, variable: string, template: string, counter: DataCounter): unknown {
  if (typeof value === "function" || typeof value === "symbol") {
    throw new PromptTemplateError(
      template,
      `${template} template uses variable '${variable}', which holds ${typeof value === "function" ? "a function" : "a symbol"}: a template cannot call code; pass the data it needs instead.`,
      { variable },
    );
  }
  return new Converter(variable, template, counter).convert(value, [variable], 0);
}

class Converter {
  private readonly ancestors = new Set<object>();

  constructor(
    private readonly variable: string,
    private readonly template: string,
    private readonly counter: DataCounter,
  ) {}

  convert(value: unknown, path: PropertyKey[], depth: number): unknown {
    if (++this.counter.count > templateLimits.maxContextValues) {
      throw this.error(`whose values, with the other variables', number more than ${formatCount(templateLimits.maxContextValues)}, the limit for one render: pass less data`);
    }
    switch (typeof value) {
      case "string":
      case "number":
      case "boolean":
      case "undefined":
        return value;
      case "bigint":
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
      case "object":
        return value === null ? null : this.convertObject(value, path, depth);
      default:
        return undefined;
    }
  }

  private convertObject(value: object, path: PropertyKey[], depth: number): unknown {
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (depth >= templateLimits.maxValueDepth) throw this.error(`which nests deeper than ${templateLimits.maxValueDepth} levels at ${formatPath(path)}, the limit for template values: pass a flatter value`);
    if (this.ancestors.has(value)) throw this.error(`whose value has no template form: ${formatPath(path)} holds a circular reference; pass plain data`);
    this.ancestors.add(value);
    try {
      if (value instanceof ChatMessage) return this.convertObject({ ...this.jsonForm(() => value.toJSON()), text: value.text ?? null, role: value.role }, path, depth);
      if (Array.isArray(value)) return value.map((item, i) => this.convert(item, [...path, i], depth + 1) ?? null);
      if (value instanceof Set) return [...value].map((item, i) => this.convert(item, [...path, i], depth + 1) ?? null);
      if (value instanceof Map) return this.convertEntries([...value], path, depth);
      if (isPlainObject(value)) return this.convertEntries(Object.entries(value), path, depth);
      return this.convert(this.jsonForm(() => toJsonValue(value, path)), path, depth);
    } finally {
      this.ancestors.delete(value);
    }
  }

  private convertEntries(entries: [unknown, unknown][], path: PropertyKey[], depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      if (typeof key !== "string") throw this.error(`whose value has no template form: ${formatPath(path)} is a Map with a key that is not a string; use string keys`);
      const converted = this.convert(item, [...path, key], depth + 1);
      if (converted !== undefined) setOwn(out, key, converted);
    }
    return out;
  }

  // A value's JSON form, or the error naming the variable when it has none.
  private jsonForm<T>(make: () => T): T {
    try {
      return make();
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/\.$/, "") : String(error);
      throw this.error(`whose value has no template form: ${reason}; pass plain data (strings, numbers, booleans, null, arrays, objects, Dates, ChatMessages)`, error);
    }
  }

  private error(problem: string, cause?: unknown): PromptTemplateError {
    return new PromptTemplateError(this.template, `${this.template} template uses variable '${this.variable}', ${problem}.`, { variable: this.variable, cause });
  }
}
