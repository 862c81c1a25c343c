import type { ArgumentProblem } from "../errors";

/** The outcome of checking a tool call's arguments. */
export type ValidationOutcome =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly problems: ArgumentProblem[] };

/** Checks model arguments (already parsed from JSON) against a tool's parameters. */
export interface ArgumentValidator {
  validate(args: Record<string, unknown>): ValidationOutcome;
}
