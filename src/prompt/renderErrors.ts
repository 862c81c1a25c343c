import { PromptTemplateError } from "../errors";
import { templateLimits } from "./templateLimits";

/** `1,000,000`: numbers in messages. */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

/** The render did more work than `templateLimits.maxSteps`. */
export function budgetExceeded(template: string): PromptTemplateError {
  return new PromptTemplateError(
    template,
    `${template} template exceeded its budget of ${formatCount(templateLimits.maxSteps)} steps: it loops or copies too much; loop over less data, or do the work before rendering and pass the result as a variable.`,
  );
}

/**
 * A string over `templateLimits.maxOutputLength`: made (`length` known), or about to be made
 * (`length` predicted, or unknown when measuring stopped at the limit).
 */
export function stringTooLong(template: string, length: number | undefined, made = false): PromptTemplateError {
  const size = length === undefined ? `more than ${formatCount(templateLimits.maxOutputLength)} characters, the limit` : `${formatCount(length)} characters, more than the limit of ${formatCount(templateLimits.maxOutputLength)}`;
  return new PromptTemplateError(
    template,
    `${template} template ${made ? "made" : "would make"} a string of ${size} on its output and on any string it makes: render less text.`,
  );
}

/** Evaluations nested deeper than `templateLimits.maxEvaluationDepth` (a macro that calls itself). */
export function evaluationTooDeep(template: string, cause?: unknown): PromptTemplateError {
  return new PromptTemplateError(
    template,
    `${template} template nests calls more than ${formatCount(templateLimits.maxEvaluationDepth)} levels deep while rendering, the limit: make a macro that calls itself stop sooner.`,
    { cause },
  );
}

/** A value nested deeper than `templateLimits.maxValueDepth`. */
export function valueTooDeep(template: string): PromptTemplateError {
  return new PromptTemplateError(template, `${template} template made a value nested more than ${templateLimits.maxValueDepth} levels deep, the limit: build flatter values.`);
}

/** Any other failure while rendering, with the interpreter's own message. */
export function renderFailed(template: string, error: unknown): PromptTemplateError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, "");
  return new PromptTemplateError(template, `${template} template failed while rendering: ${message}; fix the template, or the values it is given.`, { cause: error });
}
