import { describeError, SnapshotError } from "../errors";
import type { State, StateJSON } from "../state/state";
import { type AgentSnapshot, type RunPosition, snapshotFromPosition } from "../agent/snapshot";
import type { RunContext } from "./runContext";

/** The run's position now, as a RunPosition (`toolStep` given: that step instead of the cursor's). */
export function positionOf(run: RunContext, toolStep: RunPosition["toolStep"] | null = null): RunPosition {
  const { cursor } = run;
  const step = toolStep === null ? cursor.toolStep : toolStep;
  const trace = run.observer?.traceContext ?? run.continues;
  return {
    stepCount: cursor.stepCount,
    visits: { chatGenerator: cursor.modelVisits, tools: new Map(cursor.toolVisits) },
    next: cursor.next,
    ...(cursor.next === "tool" && step && { toolStep: step }),
    usage: run.usage.toJSON(),
    ...(trace && { trace }),
  };
}

/** A snapshot of the run where it stands (signed with the Agent's key). */
export function snapshotAt(run: RunContext, toolStep: RunPosition["toolStep"] | null = null): AgentSnapshot {
  return run.sealSnapshot(snapshotFromPosition(stateJSON(run.state), positionOf(run, toolStep)));
}

/** Builds a snapshot now and hands out the outcome later: the snapshot, or the error building it. */
export function snapshotNow(run: RunContext, toolStep: RunPosition["toolStep"]): () => AgentSnapshot {
  try {
    const made = snapshotAt(run, toolStep);
    return () => made;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}

function stateJSON(state: State): StateJSON {
  try {
    return state.toJSON();
  } catch (error) {
    throw new SnapshotError(
      "state",
      `The run could not make its snapshot: ${describeError(error)} A snapshot (to pause for confirmation, stop at a breakpoint, retry a failure or checkpoint a step) is plain JSON, so keep clients and other non-JSON values out of State (a tool's class can hold them).`,
      { cause: error },
    );
  }
}
