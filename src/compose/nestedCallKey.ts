import type { PendingConfirmation } from "../hitl/confirmationTypes";

/** Escapes one segment of a nested call key as a JSON Pointer does: `~` becomes `~0`, `/` becomes `~1`. */
export function escapeKeySegment(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The key a calling run decides a paused sub-run's call by: the agent tool call's key and the
 * sub-run's key, each escaped, joined with `/`. A sub-run's own nested key (it has `agent`) is
 * already escaped, so it is kept whole; escaping every segment once makes two different paths of
 * ids two different keys, whatever characters a model or provider puts in its ids.
 */
export function nestedCallKey(callKey: string, pending: PendingConfirmation): string {
  return `${escapeKeySegment(callKey)}/${pending.agent === undefined ? escapeKeySegment(pending.toolCallId) : pending.toolCallId}`;
}
