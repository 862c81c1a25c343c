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
  return `${request.toolName}\u0000${stableJson(request.arguments)}`;
}

/** JSON with object keys sorted, so equal arguments give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
