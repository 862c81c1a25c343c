import type { RunStop } from "../run/middleware";
import type { ChatMessageJSON } from "../chat/chatMessage";
import type { StreamingChunk } from "../chat/streaming";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import type { JsonValue } from "../state/jsonCodec";
import type { RunUsage } from "../observe/runUsage";

/** A finished run as plain JSON: what `agent.run` resolved with, its messages in their JSON form. */
export interface RunResultJSON {
  readonly exitReason: string;
  readonly stepCount: number;
  /** Tokens, model calls and tool calls over the whole run, across its steps, workers and pauses. */
  readonly usage: RunUsage;
  /** The typed final answer, when the worker's Agent has an `outputSchema` (as JSON). */
  readonly output?: JsonValue;
  /**
   * With `exitReason` `"stopped"`, `"budget_exhausted"` or `"guardrail_tripped"`: which middleware
   * stopped the run, where, and why. Such a run's status is `stopped`: its checkpoint is kept, and
   * `RunQueue.continue` goes on from it.
   */
  readonly stopped?: RunStop;
  /** Every message of the run (`ChatMessage.fromJSON` rebuilds one). */
  readonly messages: readonly ChatMessageJSON[];
  readonly lastMessage: ChatMessageJSON;
  /** Every state key with a value, other than `messages`, as JSON. */
  readonly state: Readonly<Record<string, JsonValue>>;
  /** For a run in a thread (`conversation`): the thread, its version now, and how many messages this leg appended. */
  readonly conversation?: { readonly threadId: string; readonly version: number; readonly appended: number };
}

/** Why a run failed: the error's class name and message (the model's and tools' errors as the Agent reported them). */
export interface RunFailure {
  readonly name: string;
  readonly message: string;
}

/**
 * What a run's event stream carries, in order: the `agent.stream` chunks (text and tool-call deltas,
 * tool results, finish chunks), `recovered` when a step starts again on another worker after its
 * worker was lost (the chunks of the lost attempt's step may repeat), and one of the ends: `paused`
 * (waiting for decisions; `resume` continues the same stream), `stopped` (a middleware stopped the
 * run: a budget, a guardrail; `continue` continues the same stream), `result`, `failed`, `cancelled`.
 */
export type RunEvent =
  | StreamingChunk
  | { readonly type: "recovered"; readonly stepCount: number }
  | { readonly type: "paused"; readonly pendingConfirmations: readonly PendingConfirmation[] }
  /** `refused`: the state a `continue` gave, which the worker's Agent refused; the run is stopped where it was, its checkpoint kept. */
  | { readonly type: "stopped"; readonly stopped: RunStop; readonly result: RunResultJSON; readonly refused?: RunFailure }
  | { readonly type: "result"; readonly result: RunResultJSON }
  /** `result`: with a ConversationAppendError, the run's result, whose messages the thread did not take. */
  | { readonly type: "failed"; readonly error: RunFailure; readonly result?: RunResultJSON }
  | { readonly type: "cancelled" };

/** A run event with its Redis Stream id: give the last id a client saw as `after` to go on from there (SSE `Last-Event-ID`). */
export interface RunEventEntry {
  readonly id: string;
  readonly event: RunEvent;
}

/** Where a run stands when it is not running: `result(runId)` resolves with one. */
export type RunOutcome =
  | { readonly status: "done"; readonly result: RunResultJSON }
  | { readonly status: "paused"; readonly pendingConfirmations: readonly PendingConfirmation[] }
  /** A middleware stopped the run (`stopped`: which, why, the figures); `result` is where it stood. `RunQueue.continue` goes on. */
  | { readonly status: "stopped"; readonly stopped: RunStop; readonly result: RunResultJSON; readonly refused?: RunFailure }
  /** `result`: with a ConversationAppendError, the run's result, whose messages the thread did not take. */
  | { readonly status: "failed"; readonly error: RunFailure; readonly result?: RunResultJSON }
  | { readonly status: "cancelled" };

/** The events after which a run's stream waits for a resume or has ended. */
export function endsLeg(event: RunEvent): boolean {
  return event.type === "paused" || event.type === "stopped" || event.type === "result" || event.type === "failed" || event.type === "cancelled";
}
