import type { StreamingCallback } from "../chat/streaming";
import type { PendingConfirmation } from "../hitl/confirmationTypes";
import type { AgentSnapshot, NestedResume } from "../agent/snapshot";
import type { RunUsage } from "../observe/runUsage";

/** What a call of a tool that runs an agent (`agent.asTool()`) learns from the step that makes it. */
export interface SubRunCall {
  /** How many agent runs enclose the call (1 for a tool of a top-level run). */
  readonly depth: number;
  /** The calling run's streaming callback: the sub-run's chunks go there, tagged. */
  readonly streamingCallback: StreamingCallback | undefined;
  /** True when the calling run can pause with the sub-run's snapshot (an Agent run; not a ToolRunner or MCP call). */
  readonly canPause: boolean;
  /** The paused sub-run this call continues, on a resumed run. */
  readonly resume: NestedResume | undefined;
  /** Adds the sub-run's tokens to the calling run's usage. */
  readonly addTokens: (usage: RunUsage) => void;
}

/** A sub-run that paused for confirmation: the calling run pauses too, nesting its snapshot. */
export interface SubRunPause {
  readonly toolName: string;
  readonly snapshot: AgentSnapshot;
  readonly pending: readonly PendingConfirmation[];
}

/** How a sub-run's call ended: with the tool's value, or paused. */
export type SubRunOutcome = { readonly paused?: undefined; readonly value: unknown } | { readonly paused: SubRunPause };
