import { types } from "node:util";
import { describeError } from "../errors";

/**
 * Whether a thrown value is an Error, of this realm or another (a vm context); false for a value
 * whose prototype cannot be read (a Proxy whose trap throws).
 */
export function isError(thrown: unknown): thrown is Error {
  try {
    return types.isNativeError(thrown) || thrown instanceof Error;
  } catch {
    return false;
  }
}

/** `describeError` that never throws: a value whose getters, traps or `toJSON` throw is described as such. */
export function describeThrown(thrown: unknown): string {
  try {
    return describeError(thrown);
  } catch {
    return "(a thrown value that could not be described)";
  }
}
