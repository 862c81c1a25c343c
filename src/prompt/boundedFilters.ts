import type { RenderBudget } from "./renderBudget";
import { stringTooLong } from "./renderErrors";
import { templateLimits } from "./templateLimits";
import { isCompound, isInteger, isString, type TemplateValue } from "./templateValues";

// The operations whose output can be far larger than their inputs and the steps spent on them: each
// check predicts the output's length and throws before the interpreter allocates it.

/** `value | join(separator)`: every item, plus the separator between each two. */
export function checkJoin(template: string, operand: TemplateValue, separator: TemplateValue | undefined, budget: RenderBudget): void {
  const separatorLength = isString(separator) ? separator.value.length : 0;
  let count = 0;
  let length = 0;
  if (isString(operand)) {
    count = operand.value.length;
    length = count;
  } else if (operand.type === "ArrayValue" || operand.type === "TupleValue") {
    const items = operand.value as TemplateValue[];
    count = items.length;
    for (const item of items) length += isString(item) ? item.value.length : isCompound(item) ? budget.printedLength(item) : 24;
  } else {
    return;
  }
  check(template, length + Math.max(0, count - 1) * separatorLength);
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
