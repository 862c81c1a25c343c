import type { OutputsToState } from "../tools/toolOutputs";
import type { State } from "./state";
import { isPlainObject } from "../util/isPlainObject";
import { resultParts } from "../tools/toolResultContent";

/** A failed write while merging a tool's outputs. */
export interface MergeFailure {
  readonly stateKey: string;
  readonly error: unknown;
}

/**
 * Merges a tool's result into State as `outputsToState` says. Only a plain-object result is
 * merged, and a result with images or files (whole, by the keys without `source`); for each key, `source` picks a property (an absent or undefined one writes nothing) and no
 * `source` writes the whole result, with the entry's handler or the key's own. Stops at the first
 * failed write and returns it; earlier writes of the same call stay.
 */
export function mergeToolOutputs(state: State, result: unknown, outputsToState: Readonly<OutputsToState>): MergeFailure | undefined {
  const plain = isPlainObject(result);
  // A result with images or files (an ImageContent, a FileContent, a list of parts) is written whole: it has no properties to pick.
  if (!plain && resultParts(result) === undefined) return undefined;
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
