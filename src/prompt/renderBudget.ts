import { budgetExceeded, stringTooLong, valueTooDeep } from "./renderErrors";
import { templateLimits } from "./templateLimits";
import { isCompound, itemCount, type TemplateValue } from "./templateValues";

/**
 * The work one render may still do (`templateLimits.maxSteps`), and the measure of values about to
 * be printed. Every evaluation spends a step plus its result's weight (a list's items, a string's
 * length / `charactersPerStep`), so work that repeats over large values, or builds them, runs out of
 * budget after a bounded amount of time and memory.
 */
export class RenderBudget {
  private spent = 0;
  // Printed lengths of values that cannot change (no namespace inside), so each is measured once.
  private readonly measured = new WeakMap<object, number>();

  constructor(private readonly template: string) {}

  /** Spends `steps`; throws once the budget is exceeded. */
  spend(steps: number): void {
    this.spent += steps;
    if (this.spent > templateLimits.maxSteps) throw budgetExceeded(this.template);
  }

  /** Throws, without spending, when `steps` more would exceed the budget (before allocating for them). */
  ensure(steps: number): void {
    if (this.spent + steps > templateLimits.maxSteps) throw budgetExceeded(this.template);
  }

  /** Spends what holding `value` costs: its items, or its length in `charactersPerStep`. */
  weigh(value: TemplateValue): void {
    if (value.type === "StringValue") this.spend(Math.floor((value.value as string).length / templateLimits.charactersPerStep));
    else if (isCompound(value)) this.spend(itemCount(value));
  }

  /**
   * About how many characters `value` prints as (its strings' lengths plus a few per item), before
   * the interpreter stringifies it: a list can hold the same long list many times over, so its
   * text can be far larger than the steps spent building it. Spends the printing's work; throws
   * past `maxOutputLength`, or for a value nested deeper than `maxValueDepth` (or circular, through
   * a namespace).
   */
  printedLength(value: TemplateValue): number {
    const state = { length: 0 };
    this.measure(value, 0, state);
    this.spend(Math.floor(state.length / templateLimits.charactersPerStep));
    return state.length;
  }

  // Adds the value's length to `state.length`; returns whether it can be remembered (holds no namespace).
  private measure(value: TemplateValue, depth: number, state: { length: number }): boolean {
    if (!isCompound(value)) {
      this.grow(state, value.type === "StringValue" ? (value.value as string).length + 2 : 8);
      return true;
    }
    const known = this.measured.get(value);
    if (known !== undefined) {
      this.grow(state, known);
      return true;
    }
    if (depth >= templateLimits.maxValueDepth) throw valueTooDeep(this.template);
    this.spend(1);
    const start = state.length;
    let fixed = value.type !== "NamespaceValue";
    this.grow(state, 2);
    if (Array.isArray(value.value)) {
      for (const item of value.value) {
        fixed = this.measure(item, depth + 1, state) && fixed;
        this.grow(state, 2);
      }
    } else {
      for (const [key, item] of value.value) {
        this.grow(state, key.length + 4);
        fixed = this.measure(item, depth + 1, state) && fixed;
      }
    }
    if (fixed) this.measured.set(value, state.length - start);
    return fixed;
  }

  private grow(state: { length: number }, by: number): void {
    state.length += by;
    if (state.length > templateLimits.maxOutputLength) throw stringTooLong(this.template, undefined);
  }
}
