import { ConfigurationError } from "../errors";
import type { GuardrailVerdict } from "./guardrail";

/** What a built-in guardrail does when its check fails: `"trip"` (the default: the run stops for a person), `"block"` or `"retry"`. */
export type BuiltinVerdict = "block" | "retry" | "trip";

/** Checks a built-in's `verdict` and `name` options; `subject` names the built-in in errors. */
export function builtinOptions(subject: string, options: { readonly verdict?: unknown; readonly name?: unknown }, defaultName: string): { verdict: BuiltinVerdict; name: string } {
  const { verdict = "trip", name = defaultName } = options;
  if (verdict !== "block" && verdict !== "retry" && verdict !== "trip") {
    throw new ConfigurationError(subject, `${subject} has verdict ${JSON.stringify(verdict) ?? String(verdict)}; use "trip" (the default), "block" or "retry".`, { optionPath: ["verdict"] });
  }
  if (typeof name !== "string" || name.trim() === "") throw new ConfigurationError(subject, `${subject} has a name that is not a non-empty string; stops and errors name the guardrail, so give it one.`, { optionPath: ["name"] });
  return { verdict, name };
}

/** A failed check as the verdict the built-in was told to give. */
export function failedVerdict(verdict: BuiltinVerdict, reason: string, details: Readonly<Record<string, unknown>>): GuardrailVerdict {
  if (verdict === "trip") return { trip: reason, details };
  return verdict === "block" ? { block: reason } : { retry: reason };
}
