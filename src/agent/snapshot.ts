import { z } from "zod";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import type { StateJSON } from "../state/state";

/**
 * Everything a run needs to go on, as plain JSON: the state (messages included), the step count,
 * how often each point was passed, and where to continue. Breakpoints, deferred confirmations and
 * failures produce one; `agent.run({ snapshot })` continues from it, in this process or another.
 */
export interface AgentSnapshot {
  readonly version: 1;
  readonly state: StateJSON;
  /** Model calls made so far. */
  readonly stepCount: number;
  /** How many times each point was passed: model calls, and steps that ran each tool (`"*"`: any tool). */
  readonly visits: { readonly chatGenerator: number; readonly tools: Readonly<Record<string, number>> };
  /** What the run does next: call the model, or run the tool calls of the last model replies. */
  readonly next: "chat_generator" | "tool";
  /** With `next: "tool"`: how many trailing messages are the step's replies, and the decisions so far. */
  readonly toolStep?: {
    readonly replies: number;
    readonly decisions: Readonly<Record<string, ConfirmationDecision>>;
    readonly pending: readonly PendingConfirmation[];
  };
}

const decisionSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("confirm"), feedback: z.string().optional() }),
  z.object({ action: z.literal("reject"), feedback: z.string().optional() }),
  z.object({ action: z.literal("modify"), arguments: z.record(z.string(), z.unknown()), feedback: z.string().optional() }),
]);

const snapshotSchema = z.object({
  version: z.literal(1),
  state: z.record(z.string(), z.unknown()),
  stepCount: z.number().int().min(0),
  visits: z.object({ chatGenerator: z.number().int().min(0), tools: z.record(z.string(), z.number().int().min(0)) }),
  next: z.enum(["chat_generator", "tool"]),
  toolStep: z
    .object({
      replies: z.number().int().min(1),
      decisions: z.record(z.string(), decisionSchema),
      pending: z.array(z.object({ toolCallId: z.string(), toolName: z.string(), arguments: z.record(z.string(), z.unknown()) })),
    })
    .optional(),
});

/** Checks a decision given to `agent.run({ decisions })`; returns the problem, or undefined. */
export function decisionProblem(value: unknown): string | undefined {
  const result = decisionSchema.safeParse(value);
  if (result.success) return undefined;
  return "a decision is { action: \"confirm\" | \"reject\", feedback? } or { action: \"modify\", arguments: {...}, feedback? }";
}

/** Checks that a value is an AgentSnapshot (for example one read back from JSON). */
export function parseSnapshot(value: unknown): AgentSnapshot | { problem: string } {
  const result = snapshotSchema.safeParse(value);
  if (result.success) {
    if (result.data.next === "tool" && !result.data.toolStep) return { problem: "next is \"tool\" but toolStep is missing" };
    return result.data as AgentSnapshot;
  }
  const issue = result.error.issues[0]!;
  return { problem: `${issue.path.join(".") || "(root)"}: ${issue.message}` };
}

/** Attaches a snapshot to a thrown error (as a non-enumerable `snapshot` property). */
export function attachSnapshot(error: unknown, snapshot: AgentSnapshot): void {
  if ((typeof error === "object" && error !== null) || typeof error === "function") {
    if (snapshotOf(error) === undefined) Object.defineProperty(error, "snapshot", { value: snapshot, enumerable: false, configurable: true, writable: true });
  }
}

/** The snapshot a failed or stopped run attached to its error: retry with `agent.run({ snapshot })`. */
export function snapshotOf(error: unknown): AgentSnapshot | undefined {
  if ((typeof error !== "object" || error === null) && typeof error !== "function") return undefined;
  return (error as { snapshot?: AgentSnapshot }).snapshot;
}
