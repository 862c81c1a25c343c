import type { AbortScope } from "../util/abortScope";
import { isThenable } from "../util/isThenable";
import type { StreamingCallback, StreamingChunk } from "./streaming";

/**
 * The streaming callback as a model call uses it: nothing is sent once the call's `scope` has
 * aborted, and the wait for an async callback ends as soon as it aborts.
 */
export function streamEmitter(callback: StreamingCallback, scope: AbortScope): (chunk: StreamingChunk) => Promise<void> {
  return async (chunk) => {
    scope.throwIfAborted();
    const pending = callback(chunk);
    if (isThenable(pending)) await scope.race(pending);
  };
}
