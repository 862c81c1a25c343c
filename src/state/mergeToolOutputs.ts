import type { OutputsToState } from "../tools/toolOutputs";
import type { State } from "./state";
import { isPlainObject } from "../util/isPlainObject";

/** A failed write while merging a tool's outputs. */
export interface MergeFailure {
  readonly stateKey: string;
  readonly error: unknown;
}

/**
 * Merges a tool's result into State as `outputsToState` says: for each key, `source` picks a
 * property of a plain-object result (an absent or undefined one, or a result that is not a plain
 * object, writes nothing), and no `source` writes the whole result, whatever its type (a list, a
 * string, an image; undefined, what a void tool returns, writes nothing), with the entry's handler or the key's own. Haystack writes nothing for a
 * result that is not a dict; a key without `source` says "the whole result", so toolwright writes
 * it (docs/haystack.md). Stops at the first failed write and returns it; earlier writes of the
 * same call stay.
 */
export function mergeToolOutputs(state: State, result: unknown, outputsToState: Readonly<OutputsToState>): MergeFailure | undefined {
  // A void tool returns undefined; writing it would clear the key (State removes a value set to undefined).
  if (result === undefined) return undefined;
  const plain = isPlainObject(result);
  for (const [stateKey, config] of Object.entries(outputsToState)) {
    let value: unknown = result;
    if (config.source !== undefined) {
      if (!plain) continue;
      value = Object.prototype.hasOwnProperty.call(result, config.source) ? result[config.source] : undefined;
      if (value === undefined) continue;
    }
    try {
      state.set(stateKey, value as never, config.handler);
    } catch (error) {
      return { stateKey, error };
    }
  }
  return undefined;
}
