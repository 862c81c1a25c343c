import { budgetExceeded, stringTooLong, valueTooDeep } from "./renderErrors";
import { templateLimits } from "./templateLimits";
import { isCompound, type TemplateValue } from "./templateValues";

/** A value's full extent: its values at every depth, and the characters of its strings and keys. */
interface Extent {
  readonly values: number;
  readonly characters: number;
}

/**
 * The work one render may still do (`templateLimits.maxSteps`), and measures of values. Every
 * evaluation spends a step plus its result's weight (a list's or mapping's items and the characters
 * of the strings among them, a string's characters, `charactersPerStep` to a step), so work that
 * repeats over large values, or builds them, runs out of budget after bounded time and memory.
 * Operations that reach deeper into a value (sorting, printing) spend its full extent.
 */
export class RenderBudget {
  private spent = 0;
  // Extents of values that cannot change (no namespace inside), so each is measured once.
  private readonly extents = new WeakMap<object, Extent>();

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

  /** Spends what an evaluation yielding `value` costs: its characters, or its items and theirs. */
  weigh(value: TemplateValue): void {
    if (value.type === "StringValue") return this.spend(steps((value.value as string).length));
    if (!isCompound(value)) return;
    let characters = 0;
    let items = 0;
    for (const item of Array.isArray(value.value) ? value.value : value.value.values()) {
      items++;
      if (item.type === "StringValue") characters += (item.value as string).length;
    }
    this.spend(items + steps(characters));
  }

  /** Spends what an operation that reaches every value inside `value` costs, `times` over. */
  weighAll(value: TemplateValue, times = 1): void {
    const { values, characters } = this.extent(value, 0);
    this.spend((values + steps(characters)) * times);
  }

  /**
   * About how many characters `value` prints as (its strings and keys plus a few per value), before
   * anything stringifies it: a list can hold the same long list many times over, so its text can be
   * far larger than the steps spent building it. Spends the printing's work; throws past
   * `maxOutputLength`, or for a value nested deeper than `maxValueDepth`.
   */
  printedLength(value: TemplateValue): number {
    const { values, characters } = this.extent(value, 0);
    const length = characters + 4 * values;
    if (length > templateLimits.maxOutputLength) throw stringTooLong(this.template, undefined);
    this.spend(steps(length));
    return length;
  }

  private extent(value: TemplateValue, depth: number): Extent {
    if (!isCompound(value)) return { values: 1, characters: value.type === "StringValue" ? (value.value as string).length : 0 };
    const known = this.extents.get(value);
    if (known) return known;
    if (depth >= templateLimits.maxValueDepth) throw valueTooDeep(this.template);
    // Only values not measured before cost steps, so a list that holds itself through a namespace
    // runs out of budget (or depth) rather than being walked without end.
    this.spend(1);
    let values = 1;
    let characters = 0;
    let fixed = value.type !== "NamespaceValue";
    const add = (item: TemplateValue): void => {
      const inner = this.extent(item, depth + 1);
      values += inner.values;
      characters += inner.characters;
      fixed &&= !isCompound(item) || this.extents.has(item);
    };
    if (Array.isArray(value.value)) for (const item of value.value) add(item);
    else
      for (const [key, item] of value.value) {
        characters += key.length;
        add(item);
      }
    const extent = { values, characters };
    if (fixed) this.extents.set(value, extent);
    return extent;
  }
}

function steps(characters: number): number {
  return Math.floor(characters / templateLimits.charactersPerStep);
}
