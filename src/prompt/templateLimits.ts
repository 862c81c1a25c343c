/**
 * The bounds a prompt template renders within. Templates can come from agent definitions (YAML or
 * JSON from files or requests), so each bound turns a template that would hang or exhaust memory
 * into a `PromptTemplateError` that names the bound.
 */
export const templateLimits = Object.freeze({
  /** A template's source may be at most this many characters. */
  maxSourceLength: 100_000,
  /** A render's output, and any one string a template makes on the way, may be at most this many characters. */
  maxOutputLength: 1_000_000,
  /**
   * The work one render may do, in steps: one per expression or statement evaluated; for each
   * evaluation's result, one per item of a list or mapping (`range(n)` is n) and one per
   * `charactersPerStep` characters of its strings; `stepsPerIteration` per item a `for` loop goes
   * over; and, for operations that reach every value inside a list (printing it, `sort`, `map`,
   * `selectattr`, …), one per value and per `charactersPerStep` characters inside. Rendering a
   * prompt of 100,000 characters from its variables takes some tens of thousands.
   */
  maxSteps: 1_000_000,
  /** Characters of a string that count as one step. */
  charactersPerStep: 10,
  /** Steps each item of a `for` loop costs, besides its body (the interpreter sets up a scope for each). */
  stepsPerIteration: 10,
  /** Blocks and expressions may nest this many levels in a template's source. */
  maxSyntaxDepth: 100,
  /** Evaluations may nest this many levels while rendering (macros calling macros). */
  maxEvaluationDepth: 400,
  /** Values (given to the template, or made by it) may nest this many levels. */
  maxValueDepth: 128,
  /** A render's variables may hold at most this many values in all (strings, numbers, list items, …). */
  maxContextValues: 1_000_000,
});
