import { AbortScope } from "./abortScope";

/**
 * An AbortScope linked to `parent` (and, with `timeoutMs`, aborted with `onTimeout()` when the time
 * passes), under the name the run loop still calls (src/agent/agent.ts, src/tools/invokeTools.ts);
 * new code makes an `AbortScope` itself.
 */
export function linkedAbort(parent: AbortSignal, timeoutMs?: number, onTimeout?: () => unknown): AbortScope {
  return new AbortScope(parent, { timeoutMs, onTimeout });
}
