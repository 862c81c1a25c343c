import type { RenderBudget } from "./renderBudget";
import { isCompound, type TemplateValue } from "./templateValues";

/**
 * A template value as plain JavaScript data (lists as arrays, mappings as objects), for the
 * values `templatize_part` and `{% insert %}` turn back into parts and messages. Strings are
 * shared, not copied, so each value costs one step whatever its length: an image's base64 is
 * paid for where the template reads it, not again here. Nesting is bounded by the values a render
 * is given (`templateLimits.maxValueDepth`).
 */
export function plainValue(value: TemplateValue, budget: RenderBudget): unknown {
  budget.spend(1);
  if (!isCompound(value)) return value.type === "UndefinedValue" ? undefined : (value.value as unknown);
  if (Array.isArray(value.value)) return value.value.map((item) => plainValue(item, budget) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, item] of value.value) {
    const plain = plainValue(item, budget);
    if (plain !== undefined) Object.defineProperty(out, key, { value: plain, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
