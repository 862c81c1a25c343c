import type { KeywordArgumentExpression, Statement } from "@huggingface/jinja/dist/ast";
import { precomputed, syntheticNode } from "./syntheticNodes";
import type { TemplateValue } from "./templateValues";

/** A call's arguments, evaluated once. */
export interface CallArguments {
  readonly positional: TemplateValue[];
  readonly keyword: Map<string, TemplateValue>;
  /** The same arguments as precomputed nodes, positional first, as the package evaluates them. */
  readonly nodes: Statement[];
}

/** No arguments (a filter written without parentheses). */
export const noArguments: CallArguments = Object.freeze({ positional: [], keyword: new Map(), nodes: [] });

/**
 * Evaluates a call's arguments in `@huggingface/jinja`'s order (positional ones, `*` spreads
 * included, then keyword ones and `**` spreads), failing as it fails on a bad spread or a repeated
 * keyword.
 */
export function callArguments(args: readonly Statement[], evaluate: (node: Statement) => TemplateValue): CallArguments {
  const positional: TemplateValue[] = [];
  const keyword = new Map<string, TemplateValue>();
  const nodes: Statement[] = [];
  const addPositional = (value: TemplateValue): void => {
    positional.push(value);
    nodes.push(precomputed(value));
  };
  const addKeyword = (key: string, value: TemplateValue): void => {
    if (keyword.has(key)) throw new Error(`Got multiple values for keyword argument '${key}'`);
    keyword.set(key, value);
    nodes.push(syntheticNode({ type: "KeywordArgumentExpression", key: syntheticNode({ type: "Identifier", value: key }), value: precomputed(value) }));
  };
  for (const arg of args) {
    if (arg.type === "SpreadExpression") {
      const spread = evaluate((arg as unknown as { argument: Statement }).argument);
      if (spread.type !== "ArrayValue" && spread.type !== "TupleValue") throw new Error(`Cannot unpack non-iterable type: ${spread.type}`);
      for (const item of spread.value as TemplateValue[]) addPositional(item);
    } else if (arg.type !== "KeywordArgumentExpression" && arg.type !== "KeywordSpreadExpression") {
      addPositional(evaluate(arg));
    }
  }
  for (const arg of args) {
    if (arg.type === "KeywordArgumentExpression") {
      const { key, value } = arg as KeywordArgumentExpression;
      addKeyword(key.value, evaluate(value));
    } else if (arg.type === "KeywordSpreadExpression") {
      const spread = evaluate((arg as unknown as { argument: Statement }).argument);
      if (spread.type !== "ObjectValue" && spread.type !== "KeywordArgumentsValue") throw new Error(`Argument after ** must be a mapping, not ${spread.type}`);
      for (const [key, value] of spread.value as Map<string, TemplateValue>) addKeyword(key, value);
    }
  }
  return { positional, keyword, nodes };
}
