import { RunStoppedError } from "../errors";
import type { AgentSnapshot } from "./snapshot";

/** Where a run stops: before a model call, or before running tool calls (of `toolName`, or any). */
export interface Breakpoint {
  readonly at: "chat_generator" | "tool";
  /** With `at: "tool"`: only a step that calls this tool. */
  readonly toolName?: string;
  /** How many times the point was already passed (0: the first time). Default 0. */
  readonly visit?: number;
}

/** A run reached its breakpoint; `snapshot` continues it with `agent.run({ snapshot })`. */
export class BreakpointError extends RunStoppedError {
  readonly breakpoint: Breakpoint;
  override readonly snapshot: AgentSnapshot;

  constructor(breakpoint: Breakpoint, snapshot: AgentSnapshot) {
    const where = breakpoint.at === "chat_generator" ? "before calling the chat generator" : `before running ${breakpoint.toolName ? `tool '${breakpoint.toolName}'` : "tool calls"}`;
    super(`The run stopped at its breakpoint ${where} (visit ${breakpoint.visit ?? 0}); continue it with agent.run({ snapshot: error.snapshot }).`);
    this.breakpoint = breakpoint;
    this.snapshot = snapshot;
  }
}

/** True when the breakpoint fires at a model call that has been passed `visits` times. */
export function firesAtModel(breakpoint: Breakpoint | undefined, visits: number): boolean {
  return breakpoint?.at === "chat_generator" && visits === (breakpoint.visit ?? 0);
}

/** True when the breakpoint fires at a tool step calling `toolNames`, given the tool visit counts. */
export function firesAtTools(breakpoint: Breakpoint | undefined, toolNames: ReadonlySet<string>, visits: ReadonlyMap<string, number>): boolean {
  if (breakpoint?.at !== "tool") return false;
  const name = breakpoint.toolName ?? "*";
  if (breakpoint.toolName !== undefined && !toolNames.has(breakpoint.toolName)) return false;
  return (visits.get(name) ?? 0) === (breakpoint.visit ?? 0);
}
