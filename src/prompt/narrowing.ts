import type { BinaryExpression, Identifier, Statement, TestExpression, UnaryExpression } from "@huggingface/jinja/dist/ast";

const emptySet: ReadonlySet<string> = new Set();

/** What a condition proves about which names are defined. */
export interface Narrowing {
  /** Names known to be defined when the test is true. */
  readonly ifTrue: ReadonlySet<string>;
  /** Names known to be defined when the test is false. */
  readonly ifFalse: ReadonlySet<string>;
}

/**
 * The names a condition proves defined when it is true, and when it is false: `x is defined`,
 * `x is not undefined`, and their combinations with `not`, `and` and `or`.
 */
export function narrowing(test: Statement): Narrowing {
  switch (test.type) {
    case "TestExpression": {
      const { operand, negate, test: name } = test as TestExpression;
      if (operand.type !== "Identifier" || (name.value !== "defined" && name.value !== "undefined")) break;
      const known = new Set([(operand as Identifier).value]);
      return (name.value === "defined") !== negate ? { ifTrue: known, ifFalse: emptySet } : { ifTrue: emptySet, ifFalse: known };
    }
    case "UnaryExpression": {
      const { operator, argument } = test as UnaryExpression;
      if (operator.value !== "not") break;
      const inner = narrowing(argument);
      return { ifTrue: inner.ifFalse, ifFalse: inner.ifTrue };
    }
    case "BinaryExpression": {
      const { operator, left, right } = test as BinaryExpression;
      if (operator.value !== "and" && operator.value !== "or") break;
      const a = narrowing(left);
      const b = narrowing(right);
      return operator.value === "and"
        ? { ifTrue: union(a.ifTrue, b.ifTrue), ifFalse: intersection(a.ifFalse, b.ifFalse) }
        : { ifTrue: intersection(a.ifTrue, b.ifTrue), ifFalse: union(a.ifFalse, b.ifFalse) };
    }
  }
  return { ifTrue: emptySet, ifFalse: emptySet };
}

function union(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  return a.size === 0 ? b : b.size === 0 ? a : new Set([...a, ...b]);
}

function intersection(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  return new Set([...a].filter((name) => b.has(name)));
}
