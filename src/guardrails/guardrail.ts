import type { ChatMessage, ToolCall } from "../chat/chatMessage";
import type { HookContext, HookPoint, MaybePromise, StopAction } from "../run/middleware";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { GuardrailError } from "./guardrailError";

/**
 * What a guardrail decides: let it through (`pass`), refuse it and tell the model why (`block`),
 * have the model answer again (`retry`), or end the run for a person to decide (`trip`:
 * `exitReason: "guardrail_tripped"` with a resumable snapshot).
 */
export type GuardrailVerdict =
  | { readonly pass: true }
  | { readonly block: string }
  | { readonly retry: string }
  | { readonly trip: string; readonly details?: Readonly<Record<string, unknown>> };

/** One user message of the run's input, checked before the model sees it. */
export interface InputGuardrailInput {
  readonly point: "input";
  /** The message's text (empty when it has none). */
  readonly text: string;
  readonly message: ChatMessage;
}

/** The final answer: a reply without tool calls. */
export interface OutputGuardrailInput {
  readonly point: "output";
  /** The answer's text (empty when it has none). */
  readonly text: string;
  readonly message: ChatMessage;
  /** The answer parsed as JSON when it is a JSON object (a typed-output run's answer, not yet checked against the outputSchema); else undefined. */
  readonly json: Readonly<Record<string, unknown>> | undefined;
}

/** A tool call about to run. */
export interface ToolCallGuardrailInput {
  readonly point: "toolCall";
  /** The arguments as JSON text. */
  readonly text: string;
  readonly toolCall: ToolCall;
  /** The validated arguments the tool would get. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A tool call's result, before the model sees it. */
export interface ToolResultGuardrailInput {
  readonly point: "toolResult";
  /** The result as text: a string as it is, anything else as JSON (empty for a failed call). */
  readonly text: string;
  readonly toolCall: ToolCall;
  readonly failed: boolean;
  /** What the tool returned; undefined for a failed call. */
  readonly result: unknown;
}

/** What a guardrail checks, by `point`; every kind has `text`, so a text check fits every point. */
export type GuardrailInput = InputGuardrailInput | OutputGuardrailInput | ToolCallGuardrailInput | ToolResultGuardrailInput;

/** A named check: `inputGuardrail`, `outputGuardrail` and `toolGuardrail` run it at their hook points. */
export interface Guardrail {
  /** Names the guardrail in stops (`result.stopped.details.guardrail`) and errors. */
  readonly name: string;
  /** Checks one input (a user message, the answer, a tool call or its result): pass, block, or ask the model to retry. */
  check(input: GuardrailInput, context: HookContext): MaybePromise<GuardrailVerdict>;
}

/** The verdict a guardrail gave, checked: a verdict of another shape is the guardrail's bug, named. */
export async function verdictOf(guardrail: Guardrail, input: GuardrailInput, context: HookContext): Promise<GuardrailVerdict> {
  const verdict: unknown = await guardrail.check(input, context);
  if (typeof verdict === "object" && verdict !== null) {
    const v = verdict as Record<string, unknown>;
    if (v.pass === true) return verdict as GuardrailVerdict;
    for (const key of ["block", "retry", "trip"] as const) if (typeof v[key] === "string") return verdict as GuardrailVerdict;
  }
  throw new GuardrailError(guardrail.name, `Guardrail '${guardrail.name}' returned ${describeKind(verdict)} for the ${input.point}; return { pass: true }, { block: reason }, { retry: reason } or { trip: reason, details? }.`);
}

/** The stop a trip makes: `guardrail_tripped`, the guardrail's reason, and details naming the guardrail and the point. */
export function tripStop(guardrail: Guardrail, point: GuardrailInput["point"], verdict: { readonly trip: string; readonly details?: Readonly<Record<string, unknown>> }): StopAction {
  return { stop: { exitReason: "guardrail_tripped", reason: verdict.trip, details: { ...verdict.details, guardrail: guardrail.name, point } } };
}

// Middleware names are 1-64 characters; the guardrail's name follows the factory's prefix.
const maxNameLength = 40;

/** Checks a guardrail given to `factory` and makes the middleware's name: `<prefix>:<guardrail name>`. */
export function guardrailMiddlewareName(guardrail: unknown, factory: string, prefix: string): string {
  const g = guardrail as Partial<Guardrail> | null | undefined;
  if (typeof g !== "object" || g === null || typeof g.check !== "function") {
    throw new ConfigurationError(factory, `${factory} needs a guardrail { name, check(input, context) }, got ${describeKind(guardrail)}; write one or use a built-in (maxInputLength, denyPatterns, openAIModeration).`);
  }
  if (typeof g.name !== "string" || g.name.trim() === "" || g.name.length > maxNameLength) {
    throw new ConfigurationError(factory, `${factory} needs a guardrail whose name is 1-${maxNameLength} characters; stops and errors name it, so give it one: { name: "no-secrets", check }.`);
  }
  return `${prefix}:${g.name}`;
}
