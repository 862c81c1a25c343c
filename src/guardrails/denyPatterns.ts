import { ConfigurationError } from "../errors";
import { linearPatternProblem, linearTest } from "../tools/linearPattern";
import { describeKind } from "../util/describeValue";
import type { Guardrail } from "./guardrail";
import { type BuiltinVerdict, builtinOptions, failedVerdict } from "./builtinVerdict";

/** Options of `denyPatterns`. */
export interface DenyPatternsOptions {
  /**
   * Regular expressions (JavaScript syntax, found anywhere in the text; `(?i)` at the start for
   * any case), run by RE2 in time linear in the text: lookaround and backreferences are refused.
   */
  readonly patterns: readonly string[];
  /** What a matching text gets; default `"trip"`. */
  readonly verdict?: BuiltinVerdict;
  /** The guardrail's name; default `"deny-patterns"`. */
  readonly name?: string;
}

/** A guardrail that fails a text matching any of `patterns`, naming the first that matches; never runs the backtracking JavaScript engine. */
export function denyPatterns(options: DenyPatternsOptions): Guardrail {
  const patterns = options?.patterns;
  if (!Array.isArray(patterns) || patterns.length === 0) {
    throw new ConfigurationError("denyPatterns", `denyPatterns needs patterns, a non-empty array of regular expressions, got ${Array.isArray(patterns) ? "an empty array" : describeKind(patterns)}.`, { optionPath: ["patterns"] });
  }
  patterns.forEach((pattern: unknown, i) => {
    if (typeof pattern !== "string") throw new ConfigurationError("denyPatterns", `denyPatterns has patterns[${i}] that is ${describeKind(pattern)}, not a string.`, { optionPath: ["patterns", String(i)] });
    const problem = linearPatternProblem(pattern);
    if (problem) {
      throw new ConfigurationError("denyPatterns", `denyPatterns has patterns[${i}] ${JSON.stringify(pattern)}, which cannot be matched in linear time (${problem}); rewrite it without lookaround or backreferences.`, {
        optionPath: ["patterns", String(i)],
      });
    }
  });
  const { verdict, name } = builtinOptions("denyPatterns", options, "deny-patterns");
  const list: readonly string[] = Object.freeze([...patterns]);
  return {
    name,
    check({ text }) {
      const pattern = list.find((p) => linearTest(p, text));
      if (pattern === undefined) return { pass: true };
      return failedVerdict(verdict, `The text matches the deny pattern ${JSON.stringify(pattern)}.`, { pattern });
    },
  };
}
