import { ConfigurationError } from "../errors";

/**
 * What values an option takes, declared once: the check of the option given in code reads it, and
 * so does the definition format's type of the option given as data (`optionDataType`).
 */
export type OptionRule =
  /** A whole number from `min` (to `max`, when there is one). */
  | { readonly kind: "integer"; readonly min: number; readonly max?: number }
  /** A finite number above 0. */
  | { readonly kind: "positive" }
  /** A name: a string of 1 to 200 characters. */
  | { readonly kind: "name" }
  /** A string of at most `maxLength` characters. */
  | { readonly kind: "text"; readonly maxLength: number }
  | { readonly kind: "boolean" }
  | { readonly kind: "function" }
  /** An object that is not an array (`null` is not one). */
  | { readonly kind: "record" }
  /** An array of at least `minItems` items, each of `items` when given. */
  | { readonly kind: "list"; readonly minItems: number; readonly items?: OptionRule }
  /** Anything `accepts` says yes to: code only (a definition holds no such value). */
  | { readonly kind: "custom"; readonly accepts: (value: unknown) => boolean };

/**
 * A rule a definition can hold (JSON values, bounded: a definition is untrusted data). A list
 * carries its messages for a value that is not one and for one with too few items.
 */
export type DataRule =
  | { readonly kind: "integer"; readonly min: number; readonly max: number }
  | { readonly kind: "name" }
  | { readonly kind: "text"; readonly maxLength: number }
  | { readonly kind: "boolean" }
  | { readonly kind: "list"; readonly minItems: number; readonly items: DataRule; readonly notList: string; readonly tooFew: string };

/** How an option is written in an agent definition: its rule there, and the words of its messages and schema. */
export interface OptionData {
  /** The rule in a definition: the code's, or narrower (a bound untrusted data must keep); a table test checks it accepts nothing the code refuses. */
  readonly rule: DataRule;
  /** What the value means, in the definition messages: `must be a whole number from 1 to 1000 (<what>)`. */
  readonly what?: string;
  /** The JSON Schema `description`. */
  readonly description: string;
}

/**
 * One option, declared once: its rule, the message of the `ConfigurationError` a value in code
 * that breaks it gets, its default, and its form in a definition (absent for an option that is
 * code, such as a callback, or that a definition names by reference, such as tools).
 */
export interface OptionSpec<T> {
  readonly rule: OptionRule;
  /**
   * The message for `value`, which broke the rule, given to `subject` (`Agent`, `Agent.run`);
   * `known` lists what an option that names things may name (tool names, for exitConditions).
   */
  readonly message: (value: unknown, subject: string, known: readonly string[]) => string;
  /** The value when the option is left out. */
  readonly fallback?: T;
  /** The option may not be left out. */
  readonly required?: boolean;
  readonly data?: OptionData;
}

/** An option's spec, typed by what it holds once checked (`T`). */
export function option<T>(spec: OptionSpec<T>): OptionSpec<T> {
  return spec;
}

/** Whether `value` keeps `rule`. */
export function acceptsRule(rule: OptionRule, value: unknown): boolean {
  switch (rule.kind) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value) && value >= rule.min && (rule.max === undefined || value <= rule.max);
    case "positive":
      return typeof value === "number" && Number.isFinite(value) && value > 0;
    case "name":
      return typeof value === "string" && value.length >= 1 && value.length <= 200;
    case "text":
      return typeof value === "string" && value.length <= rule.maxLength;
    case "boolean":
      return typeof value === "boolean";
    case "function":
      return typeof value === "function";
    case "record":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "list":
      return Array.isArray(value) && value.length >= rule.minItems && (rule.items === undefined || value.every((item) => acceptsRule(rule.items!, item)));
    case "custom":
      return rule.accepts(value);
  }
}

/** Checks an option given in code: returns it (its default when left out), or throws the spec's `ConfigurationError`. */
export function checkOption<T>(spec: OptionSpec<T>, value: unknown, subject: string, known: readonly string[] = []): T {
  if (value === undefined && !spec.required) return spec.fallback as T;
  if (!acceptsRule(spec.rule, value)) throw new ConfigurationError(subject, spec.message(value, subject, known));
  return value as T;
}
