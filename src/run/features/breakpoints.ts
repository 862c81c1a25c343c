import { type Breakpoint, BreakpointError, firesAtModel, firesAtTools } from "../../agent/breakpoint";
import type { RunFeature } from "../runContext";
import { snapshotAt } from "../runSnapshot";

/**
 * Stops the run at its breakpoint (`run({ breakpoint })`) with a BreakpointError carrying a
 * snapshot: before a model call, or before a tool step. A resumed run passes the point it stopped at.
 */
export function breakpointFeature(breakpoint: Breakpoint): RunFeature {
  return {
    beforeModel(run) {
      if (!run.cursor.resuming && firesAtModel(breakpoint, run.cursor.modelVisits)) throw new BreakpointError(breakpoint, snapshotAt(run));
    },
    beforeTools(run, step) {
      if (!run.cursor.resuming && firesAtTools(breakpoint, step.names, run.cursor.toolVisits)) throw new BreakpointError(breakpoint, snapshotAt(run));
    },
  };
}
