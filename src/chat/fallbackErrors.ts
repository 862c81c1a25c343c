import { CallbackError, ChatGeneratorError } from "../errors";
import type { TokenUsage } from "./chatGenerator";

/** One generator's turn in a `FallbackChatGenerator` call, as the response's `meta.fallbackAttempts` and the errors list them. */
export interface FallbackAttempt {
  /** The generator's position in `generators`. */
  readonly index: number;
  /** The generator's `model` and `provider`, when it names them. */
  readonly model: string | undefined;
  readonly provider: string | undefined;
  /** How the turn ended: an answer that was used, an error that fell back or ended the call, or an answer the policy refused. */
  readonly outcome: "answered" | "failed" | "refused";
  /** The failure's message, for a turn that failed. */
  readonly error?: string;
  /** The failure's HTTP status, when the provider answered with one. */
  readonly status?: number;
  /** The refused answer's token counts, when it had any (the run's usage counts only the answer used). */
  readonly usage?: TokenUsage;
}

/**
 * Every generator of a `FallbackChatGenerator` failed with an error its policy falls back on. The
 * last failure is `cause` (its `status` and `providerMessage` are this error's); `attempts` lists
 * each generator's.
 */
export class FallbackChatGeneratorError extends ChatGeneratorError {
  /** Each generator's turn, in order. */
  readonly attempts: readonly FallbackAttempt[];

  constructor(message: string, attempts: readonly FallbackAttempt[], last: unknown) {
    const { status, providerMessage } = last instanceof ChatGeneratorError ? last : { status: undefined, providerMessage: undefined };
    super(message, { cause: last, ...(status !== undefined && { status }), ...(providerMessage !== undefined && { providerMessage }) });
    this.attempts = Object.freeze([...attempts]);
  }
}

/** A `FallbackChatGenerator`'s `shouldFallBack` threw or returned something other than a boolean; its own error is `cause`. */
export class FallbackPolicyError extends CallbackError {}
