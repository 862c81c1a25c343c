import type { AgentSnapshot } from "../../agent/snapshot";
import { isThenable } from "../../util/isThenable";
import type { RunFeature } from "../runContext";
import { snapshotAt } from "../runSnapshot";

/**
 * Hands a snapshot to `run({ onCheckpoint })` every time the run reaches a new position, and waits
 * for it unless the run is aborted first.
 */
export function checkpointFeature(onCheckpoint: (snapshot: AgentSnapshot) => void | Promise<void>): RunFeature {
  return {
    async checkpoint(run) {
      const { abort } = run;
      if (abort.aborted) throw abort.abortError();
      const saved = onCheckpoint(snapshotAt(run));
      if (isThenable(saved)) await abort.race(Promise.resolve(saved), () => abort.abortError());
    },
  };
}
