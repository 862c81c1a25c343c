import type { Statement } from "@huggingface/jinja/dist/ast";
import type { TemplateValue } from "./templateValues";

// The interpreter dispatches on a node's `type` and reads its fields, so a plain object with the
// right fields stands for a node: a node made of values already evaluated (and checked) lets the
// package do the rest of an operation without evaluating anything twice.

/** The `type` of a node that evaluates to a value computed already. */
export const precomputedType = "PrecomputedValue";

/** A node with the given fields. */
export function syntheticNode(fields: Record<string, unknown>): Statement {
  return fields as unknown as Statement;
}

/** A node that evaluates to `value` (the interpreter's `evaluate` hands it back as it is). */
export function precomputed(value: TemplateValue): Statement {
  return syntheticNode({ type: precomputedType, value });
}
