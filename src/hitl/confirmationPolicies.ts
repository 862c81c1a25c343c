import { canonicalJson } from "../util/canonicalJson";
import type { ConfirmationDecision, ConfirmationPolicy, ConfirmationRequest } from "./confirmationTypes";

/** Asks about every call (the default). */
export class AlwaysAskPolicy implements ConfirmationPolicy {
  shouldAsk(): boolean {
    return true;
  }
}

/** Never asks: every call runs as the model made it. */
export class NeverAskPolicy implements ConfirmationPolicy {
  shouldAsk(): boolean {
    return false;
  }
}

/**
 * Asks once per tool and arguments: a call equal to one already confirmed (same tool, equal
 * arguments) runs without asking. Remembers confirmations for the life of the policy object.
 */
export class AskOncePolicy implements ConfirmationPolicy {
  readonly #confirmed = new Set<string>();

  shouldAsk(request: ConfirmationRequest): boolean {
    return !this.#confirmed.has(key(request));
  }

  recordDecision(request: ConfirmationRequest, decision: ConfirmationDecision): void {
    if (decision.action === "confirm") this.#confirmed.add(key(request));
  }
}

function key(request: ConfirmationRequest): string {
  return `${request.toolName}\u0000${canonicalJson(request.arguments)}`;
}
