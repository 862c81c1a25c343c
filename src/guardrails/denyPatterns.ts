import { ConfigurationError } from "../errors";
import { linearPatternProblem, linearPatternSize, linearTest } from "../tools/linearPattern";
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
  /**
   * The most RE2 instructions the patterns may compile to together; default 1,000. A check costs
   * about 30 ns per instruction and character of text (measured with re2js on 2 cores): 1,000
   * instructions take about 0.3 s on 10,000 characters in the worst case. Counted repetitions
   * multiply: `[a-z]{1,1000}` alone is 2,000 instructions; typical patterns are 10–50.
   */
  readonly maxProgramSize?: number;
}

const defaultMaxProgramSize = 1000;

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
  checkProgramSize(patterns as readonly string[], options.maxProgramSize);
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

// What the patterns cost per character of text, bounded: a counted repetition makes a short pattern
// a large program, and every check of every message pays for it.
function checkProgramSize(patterns: readonly string[], given: unknown): void {
  const limit = given ?? defaultMaxProgramSize;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1) {
    throw new ConfigurationError("denyPatterns", `denyPatterns needs maxProgramSize as a whole number of at least 1, got ${describeKind(given)}.`, { optionPath: ["maxProgramSize"] });
  }
  let total = 0;
  for (const [i, pattern] of patterns.entries()) {
    total += linearPatternSize(pattern);
    if (total > limit) {
      throw new ConfigurationError(
        "denyPatterns",
        `denyPatterns has patterns that compile to more than ${limit} RE2 instructions (${total} by patterns[${i}]); matching costs about 30 ns per instruction and character of text, so shorten counted repetitions such as {1,1000}, split the patterns among guardrails, or raise maxProgramSize.`,
        { optionPath: ["patterns", String(i)] },
      );
    }
  }
}
