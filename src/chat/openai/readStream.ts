import type { AbortScope } from "../../util/abortScope";
import { type ProviderCall, toChatGeneratorError } from "./toChatGeneratorError";

/**
 * Reads a provider's stream event by event. Every wait for the next event goes through `scope`
 * (so it ends as soon as the call aborts, passes its deadline or the stream goes silent), a
 * failure of the stream is a ChatGeneratorError, and the SDK's stream is released however the
 * reading ends.
 */
export async function* readStream(stream: AsyncIterable<unknown>, scope: AbortScope, call: ProviderCall): AsyncGenerator<unknown, void, undefined> {
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await scope.raceIdle(iterator.next()).catch((error: unknown) => {
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
