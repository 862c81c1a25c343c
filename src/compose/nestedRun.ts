import type { StreamingCallback } from "../chat/streaming";
import type { ConfirmationDecision, PendingConfirmation } from "../hitl/confirmationTypes";
import type { RunUsage } from "../observe/runUsage";
import type { AgentSnapshot } from "../agent/snapshot";
import { ToolwrightError } from "../errors";

/** How deep agents may call agents as tools (an agent that calls itself ends here). */
export const maxAgentNesting = 8;

/** A nested run paused inside a tool step, to be continued: its snapshot and the decisions for it. */
export interface NestedResume {
  readonly snapshot: AgentSnapshot;
  readonly decisions: ReadonlyMap<string, ConfirmationDecision>;
}

/**
 * What an agent tool's call learns from the run that calls it, beside the tool context: how deep it
 * is, where the run's stream goes, whether the run can pause for it, and the paused sub-run to
 * continue. Kept off the context object, which user tools see.
 */
export interface NestedChannel {
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

const channels = new WeakMap<object, NestedChannel>();

/** Gives a tool call's context its channel (done by the tool-calling step). */
export function openChannel(context: object, channel: NestedChannel): void {
  channels.set(context, channel);
}

/** The channel of a tool call's context, if the call is part of an Agent run. */
export function channelOf(context: object): NestedChannel | undefined {
  return channels.get(context);
}

/**
 * Thrown by an agent tool whose sub-run paused for confirmation: the calling run pauses too, with
 * one snapshot that nests the sub-run's. Never reaches a user: the tool-calling step catches it.
 */
export class NestedPause extends ToolwrightError {
  constructor(
    readonly toolName: string,
    override readonly snapshot: AgentSnapshot,
    readonly pending: readonly PendingConfirmation[],
  ) {
    super(`Agent tool '${toolName}' paused for confirmation of ${pending.map((p) => p.toolCallId).join(", ")}.`);
    this.name = "ConfirmationRequired";
  }
}

/** The run option (a symbol: never a state key, never in JSON) that tells a sub-run how deep it is. */
export const nestedDepth = Symbol("toolwright.nestedDepth");

/** What resuming a caller's snapshot needs from an agent tool: a check of its paused sub-run, before anything runs. */
export interface AgentToolInternals {
  /** Checks the sub-run's snapshot and the decisions for it as its Agent would on resume; throws SnapshotError or DecisionError. */
  checkResume(snapshot: unknown, decisions: ReadonlyMap<string, ConfirmationDecision>): void;
}

const internals = new WeakMap<object, AgentToolInternals>();

/** Registers an agent tool (`agent.asTool()`) with what resuming needs from it. */
export function registerAgentTool(tool: object, toolInternals: AgentToolInternals): void {
  internals.set(tool, toolInternals);
}

/** The internals of an agent tool, or undefined for any other tool. */
export function agentToolInternals(tool: object): AgentToolInternals | undefined {
  return internals.get(tool);
}

/** True for a tool made by `agent.asTool()`: only its calls get a channel. */
export function isAgentTool(tool: object): boolean {
  return internals.has(tool);
}
