import type { RegExpEngine, RegExpLike } from "ajv/dist/types";
import type { RE2JS } from "re2js";
import type { JsonSchema } from "./jsonSchema";
import { type Subschema, subschemas } from "./subschemas";

/** A `pattern` (or a `patternProperties` name) of a schema: where it is, as JSON Pointer segments, and its text. */
export interface SchemaPattern {
  readonly path: readonly (string | number)[];
  readonly pattern: string;
}

/** A pattern of a schema from outside the code that the linear-time engine (RE2) cannot run. */
export class UnsupportedPatternError extends Error {
  constructor(
    /** Where the pattern is in its schema (JSON Pointer segments: `["properties", "id", "pattern"]`). */
    readonly schemaPath: readonly (string | number)[],
    /** The pattern's text. */
    readonly pattern: string,
    /** Why RE2 refused it, in its words. */
    readonly detail: string,
  ) {
    super(`pattern ${JSON.stringify(pattern)} at ${pointer(schemaPath)} cannot be matched in linear time (${detail})`);
    this.name = new.target.name;
  }
}

// re2js is required on the first pattern, not on import: most schemas have none.
let re2: typeof import("re2js") | undefined;
const compiled = new Map<string, RE2JS>();
const maxCached = 1000;

function re2js(): typeof import("re2js") {
  return (re2 ??= (require("./loadRe2") as typeof import("./loadRe2")).loadRe2());
}

// JSON Schema patterns are ECMA-262 regular expressions; translateRegExp turns their syntax into
// RE2's (named groups, \u escapes), and RE2 refuses what it cannot run in linear time.
function compileLinear(pattern: string): RE2JS {
  let regex = compiled.get(pattern);
  if (!regex) {
    const { RE2JS } = re2js();
    regex = RE2JS.compile(RE2JS.translateRegExp(pattern));
    if (compiled.size >= maxCached) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, regex);
  }
  return regex;
}

/**
 * The size of the RE2 program `pattern` compiles to (its instructions: a counted repetition such as
 * `{1,1000}` repeats its body), for a pattern `linearPatternProblem` accepted. Matching costs time
 * linear in the text times this size.
 */
export function linearPatternSize(pattern: string): number {
  return compileLinear(pattern).matcher("").programSize();
}

/** Why RE2 cannot run `pattern`, in plain words, or undefined when it can. */
export function linearPatternProblem(pattern: string): string | undefined {
  // Checked before RE2 reads it: its translation of JavaScript syntax would read `\k<name>` as
  // the letters "k<name>" instead of refusing it.
  const unsupported = backtrackingOnlySyntax(pattern);
  if (unsupported) return `RE2 has no ${unsupported}`;
  try {
    compileLinear(pattern);
    return undefined;
  } catch (error) {
    return `RE2 refuses it: ${(error as Error).message}`;
  }
}

// Lookaround and backreferences outside a character class (where they are not syntax), skipping escapes.
function backtrackingOnlySyntax(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!inClass && (/[1-9]/.test(next) || (next === "k" && pattern[i + 2] === "<"))) return "backreferences";
      i += 1;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") {
      inClass = true;
    } else if (c === "(" && pattern[i + 1] === "?" && (/[=!]/.test(pattern[i + 2] ?? "") || (pattern[i + 2] === "<" && /[=!]/.test(pattern[i + 3] ?? "")))) {
      return "lookahead or lookbehind";
    }
  }
  return undefined;
}

/**
 * ajv's regular-expression engine for schemas from outside the code (`code.regExp`): RE2, whose
 * matching takes time linear in the input, so no pattern and input can stall the process (a
 * backtracking `RegExp` takes minutes on `^(a+)+$` and 40 characters). Patterns are checked with
 * `findUnsupportedPattern` before ajv sees them.
 */
export const linearRegExp: RegExpEngine = Object.assign((pattern: string): RegExpLike => {
  const regex = compileLinear(pattern);
  // ajv tells compiled patterns apart by their toString(): each must give its own.
  const matcher: RegExpLike & { toString(): string } = { test: (text: string) => regex.test(text), toString: () => `re2:${pattern}` };
  return matcher;
}, { code: "linearRegExp" });

/** The linear-time test of one pattern (a JSON Schema `pattern`: found anywhere in the string). */
export function linearTest(pattern: string, text: string): boolean {
  return compileLinear(pattern).test(text);
}

/** Every `pattern` and `patternProperties` name of a schema (annotations such as `default` are not schemas and are skipped). */
export function schemaPatterns(schema: unknown): SchemaPattern[] {
  const found: SchemaPattern[] = [];
  // A stack, not recursion: a schema from outside may nest deeply.
  const pending: Subschema[] = [{ schema, path: [] }];
  while (pending.length > 0) {
    const { schema: node, path } = pending.pop()!;
    if (typeof node !== "object" || node === null || Array.isArray(node)) continue;
    const record = node as Record<string, unknown>;
    if (typeof record.pattern === "string") found.push({ path: [...path, "pattern"], pattern: record.pattern });
    const names = record.patternProperties;
    if (typeof names === "object" && names !== null && !Array.isArray(names)) for (const name of Object.keys(names)) found.push({ path: [...path, "patternProperties", name], pattern: name });
    pending.push(...subschemas(node, path).reverse());
  }
  return found;
}

/** The first pattern of `schema` RE2 cannot run, as an error naming its place; undefined when all can run. */
export function findUnsupportedPattern(schema: JsonSchema): UnsupportedPatternError | undefined {
  for (const { path, pattern } of schemaPatterns(schema)) {
    const problem = linearPatternProblem(pattern);
    if (problem) return new UnsupportedPatternError(path, pattern, problem);
  }
  return undefined;
}

function pointer(path: readonly (string | number)[]): string {
  return path.length === 0 ? "#" : `#/${path.map((segment) => String(segment).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}
