import { ConfigurationError } from "../errors";
import { AlwaysAskPolicy } from "./confirmationPolicies";
import type { ConfirmationDecision, ConfirmationPolicy, ConfirmationRequest, ConfirmationStrategy } from "./confirmationTypes";

/** Options of `BlockingConfirmationStrategy`. */
export interface BlockingConfirmationStrategyOptions {
  /** Asks a person and resolves with their decision. */
  ask: (request: ConfirmationRequest) => Promise<ConfirmationDecision> | ConfirmationDecision;
  /** When to ask; default `AlwaysAskPolicy`. */
  policy?: ConfirmationPolicy;
}

/** Asks now (through `ask`) and waits for the answer; the run continues with it. */
export class BlockingConfirmationStrategy implements ConfirmationStrategy {
  readonly #ask: BlockingConfirmationStrategyOptions["ask"];
  readonly #policy: ConfirmationPolicy;

  constructor(options: BlockingConfirmationStrategyOptions) {
    if (typeof options?.ask !== "function") throw new ConfigurationError("BlockingConfirmationStrategy", "BlockingConfirmationStrategy needs an ask function: new BlockingConfirmationStrategy({ ask: async (request) => ({ action: \"confirm\" }) }).");
    this.#ask = options.ask;
    this.#policy = options.policy ?? new AlwaysAskPolicy();
  }

  async decide(request: ConfirmationRequest): Promise<ConfirmationDecision> {
    if (!this.#policy.shouldAsk(request)) return { action: "confirm" };
    const decision = await this.#ask(request);
    this.#policy.recordDecision?.(request, decision);
    return decision;
  }
}

/** Options of `DeferredConfirmationStrategy`. */
export interface DeferredConfirmationStrategyOptions {
  /** When to ask; default `AlwaysAskPolicy`. */
  policy?: ConfirmationPolicy;
}

/**
 * Pauses the run: it ends with `exitReason: "confirmation_required"`, the pending calls and a JSON
 * snapshot; `agent.run({ snapshot, decisions })` continues it, in this process or another.
 */
export class DeferredConfirmationStrategy implements ConfirmationStrategy {
  readonly policy: ConfirmationPolicy;

  constructor(options: DeferredConfirmationStrategyOptions = {}) {
    this.policy = options.policy ?? new AlwaysAskPolicy();
  }

  decide(request: ConfirmationRequest): "defer" | ConfirmationDecision {
    return this.policy.shouldAsk(request) ? "defer" : { action: "confirm" };
  }
}
