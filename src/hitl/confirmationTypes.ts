/** What a person decided about one tool call. */
export type ConfirmationDecision =
  | { readonly action: "confirm"; readonly feedback?: string }
  | { readonly action: "reject"; readonly feedback?: string }
  | { readonly action: "modify"; readonly arguments: Readonly<Record<string, unknown>>; readonly feedback?: string };

/** What a confirmation strategy is asked about: only what the model sent, never injected values. */
export interface ConfirmationRequest {
  readonly toolName: string;
  readonly description: string;
  /** The model's arguments, validated (a `null` sent for an optional parameter is already absent). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The call's key: the model's call id, or `#<position in the step>` when it has none or shares it (as in `PendingConfirmation`). */
  readonly toolCallId: string;
  /** The `confirmationContext` given to `agent.run`, unchanged (a socket, a user id, …). */
  readonly context: unknown;
  /** The run's signal: aborted when the run is, so an `ask` can close its prompt (the run does not wait for it). */
  readonly signal: AbortSignal;
}

/** A call waiting for a decision after a run stopped with `exitReason: "confirmation_required"`. */
export interface PendingConfirmation {
  /**
   * The key to decide the call by in `decisions`: the model's call id, or `#<position in the step>`
   * when the call has no id or shares it with another call of the step. Unique within the step.
   * A call inside an agent tool's sub-run has the agent tool call's key in front:
   * `<agent tool call>/<call>`, each key escaped as in a JSON Pointer (`~` → `~0`, `/` → `~1`), so
   * keys stay unique whatever the ids contain.
   */
  readonly toolCallId: string;
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** For a call inside an agent tool's sub-run: the agent tools it is nested in, outermost first, joined with `/` (`research`, `research/search`). */
  readonly agent?: string;
}

/** Decides whether a call needs asking. */
export interface ConfirmationPolicy {
  /** Whether a person is asked about this call; false lets it run unconfirmed. */
  shouldAsk(request: ConfirmationRequest): boolean;
  /** Told every decision a person made, to remember what they confirmed. */
  recordDecision?(request: ConfirmationRequest, decision: ConfirmationDecision): void;
}

/** Decides a call now, or defers it (the run pauses and resumes with the decision later). */
export interface ConfirmationStrategy {
  /** The decision on one tool call: confirm, reject or modify it now, or "defer" to pause the run until a person answers. */
  decide(request: ConfirmationRequest): Promise<ConfirmationDecision | "defer"> | ConfirmationDecision | "defer";
}

/** Tool name (or `"*"` for every tool) → strategy. */
export type ConfirmationStrategies = Readonly<Record<string, ConfirmationStrategy>>;
