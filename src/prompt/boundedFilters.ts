import type { RenderBudget } from "./renderBudget";
import { stringTooLong } from "./renderErrors";
import { templateLimits } from "./templateLimits";
import { templateText } from "./templateRepr";
import { isCompound, isInteger, isString, itemCount, type TemplateValue } from "./templateValues";

// The operations whose output can be far larger than their inputs and the steps spent on them: each
// check predicts the output's length and throws before the interpreter allocates it.

/**
 * Jinja's `join`: `separator.join(str(item) for item in value)`, items printed as Jinja prints them
 * (`True`, `None`, `['a']`), a string joined by characters; undefined for other operands (the
 * package's `join` reports them). Stops as soon as the result would pass `maxOutputLength`.
 */
export function templateJoin(template: string, operand: TemplateValue, separator: TemplateValue | undefined, budget: RenderBudget): string | undefined {
  const glue = isString(separator) ? separator.value : "";
  let items: readonly (string | TemplateValue)[];
  if (isString(operand)) {
    // The result is at least as long as the text; stop before splitting a text that is too long.
    if (operand.value.length > templateLimits.maxOutputLength) throw stringTooLong(template, undefined);
    items = Array.from(operand.value);
  } else if (operand.type === "ArrayValue" || operand.type === "TupleValue") {
    items = operand.value as TemplateValue[];
  } else {
    return undefined;
  }
  const parts: string[] = [];
  let length = 0;
  for (const item of items) {
    const part = typeof item === "string" ? item : templateText(item, budget, template);
    length += part.length + (parts.length > 0 ? glue.length : 0);
    if (length > templateLimits.maxOutputLength) throw stringTooLong(template, undefined);
    parts.push(part);
  }
  return parts.join(glue);
}

/** `text | indent(width)`: each line gains `width` spaces. */
export function checkIndent(template: string, operand: TemplateValue, width: TemplateValue | undefined): void {
  if (!isString(operand) || !isInteger(width)) return;
  check(template, operand.value.length + occurrences(operand.value, "\n", true) * Math.max(0, width.value));
}

/** `text.replace(old, new, count)` and `text | replace(…)`: each match grows by the difference. */
export function checkReplace(template: string, text: string, old: TemplateValue | undefined, replacement: TemplateValue | undefined, count: TemplateValue | undefined): void {
  if (!isString(old) || !isString(replacement)) return;
  const growth = replacement.value.length - old.value.length;
  if (growth <= 0) return;
  let matches = old.value === "" ? text.length + 1 : occurrences(text, old.value, false);
  if (isInteger(count) && count.value >= 0) matches = Math.min(matches, count.value);
  check(template, text.length + matches * growth);
}

/**
 * Spends what a filter that reaches every value of its operand costs: `sort` and `dictsort` compare
 * about log2(n) times per item, and an attribute path (`sort(attribute='a.b')`) is read for each.
 */
export function spendOnReach(budget: RenderBudget, filter: string, operand: TemplateValue, attributeLength: number): void {
  if (!isCompound(operand)) return;
  const items = itemCount(operand);
  const rounds = filter === "sort" || filter === "dictsort" ? Math.max(1, Math.ceil(Math.log2(items + 1))) : 1;
  budget.weighAll(operand, rounds);
  budget.spend(items * rounds * Math.floor(attributeLength / templateLimits.charactersPerStep));
}

/** `text * count`: Python's string repetition, which `@huggingface/jinja` lacks. */
export function checkRepeat(template: string, text: string, count: number): void {
  check(template, text.length * Math.max(0, count));
}

function check(template: string, predicted: number): void {
  if (predicted > templateLimits.maxOutputLength) throw stringTooLong(template, predicted);
}

// Non-overlapping occurrences of `needle`; `plusOne` counts lines (occurrences of "\n" plus one).
function occurrences(text: string, needle: string, plusOne: boolean): number {
  let count = plusOne ? 1 : 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
