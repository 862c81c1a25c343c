import type { ServerResponse } from "node:http";
import { sseDone, sseEvent, uiMessageStreamHeaders } from "./uiMessageStreamHeaders";
import { toUIMessageStream, type UIStreamSource } from "./toUIMessageStream";
import type { UIMessageStreamResponseOptions } from "./createUIMessageStreamResponse";

/**
 * How a piped stream ended: `finished` (everything written), `client_closed` (the client went away
 * first: an `agent.stream` run was aborted), `overflowed` (the client read too slowly: more than
 * `maxBufferedBytes` waited, the run was aborted and the connection closed).
 */
export type UIStreamOutcome = "finished" | "client_closed" | "overflowed";

/**
 * Writes the run to a Node `http.ServerResponse` (Express's `res` too) as the AI SDK's UI message
 * stream. Waits for the socket to drain before writing more, so a slow client holds at most
 * `maxBufferedBytes` here; resolves with how it ended, and never rejects.
 */
export async function pipeUIMessageStreamToResponse(source: UIStreamSource, res: ServerResponse, options: UIMessageStreamResponseOptions = {}): Promise<UIStreamOutcome> {
  const { status, headers, ...streamOptions } = options;
  const reader = toUIMessageStream(source, streamOptions).getReader();
  const closed = new Promise<"client_closed">((resolve) => {
    if (res.destroyed || res.writableEnded) resolve("client_closed");
    res.once("close", () => resolve("client_closed"));
  });
  // The reader's `closed` rejects when the stream errors (the overflow): it wakes a wait for `drain`.
  const errored = reader.closed.then(
    () => new Promise<never>(() => {}),
    () => "overflowed" as const,
  );
  res.writeHead(status ?? 200, { ...headers, ...uiMessageStreamHeaders });
  res.flushHeaders();
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), closed]);
      if (next === "client_closed") {
        await reader.cancel().catch(() => {});
        return "client_closed";
      }
      if (next.done) break;
      if (!res.write(sseEvent(next.value))) {
        const waited = await Promise.race([new Promise<"drain">((resolve) => res.once("drain", () => resolve("drain"))), closed, errored]);
        if (waited === "client_closed") {
          await reader.cancel().catch(() => {});
          return "client_closed";
        }
        if (waited === "overflowed") {
          res.destroy();
          return "overflowed";
        }
      }
    }
  } catch {
    res.destroy();
    return "overflowed";
  }
  res.end(sseDone);
  return "finished";
}
