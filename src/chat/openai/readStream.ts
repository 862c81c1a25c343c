import type { StreamingCallback, StreamingChunk } from "../streaming";
import type { CallLimits } from "./callLimits";
import { isThenable } from "../../util/isThenable";
import { type ProviderCall, toChatGeneratorError } from "./toChatGeneratorError";

/**
 * Reads a provider's stream event by event. Every wait for the next event goes through `limits`
 * (so it ends as soon as the call aborts, passes its deadline or the stream goes silent), a
 * failure of the stream is a ChatGeneratorError, and the SDK's stream is released however the
 * reading ends.
 */
export async function* readStream(stream: AsyncIterable<unknown>, limits: CallLimits, call: ProviderCall): AsyncGenerator<unknown, void, undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await limits.waitForChunk(iterator.next()).catch((error: unknown) => {
        throw toChatGeneratorError(error, call, "stream");
      });
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Lets the SDK release the response when the reading ended early; it is aborted by then.
    iterator.return?.().then(undefined, () => undefined);
  }
}

/**
 * The streaming callback as a call uses it: nothing is sent once the call has aborted, and the
 * wait for an async callback ends as soon as the call aborts.
 */
export function streamEmitter(callback: StreamingCallback, limits: CallLimits): (chunk: StreamingChunk) => Promise<void> {
  return async (chunk) => {
    limits.throwIfAborted();
    const pending = callback(chunk);
    if (isThenable(pending)) await limits.wait(pending);
  };
}
