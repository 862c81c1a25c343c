import { sseDone, sseEvent, uiMessageStreamHeaders } from "./uiMessageStreamHeaders";
import { toUIMessageStream, type UIStreamSource } from "./toUIMessageStream";
import type { ToUIMessageStreamOptions } from "./uiStreamOptions";

/** Options of `createUIMessageStreamResponse`: the stream's, plus the response's status and extra headers. */
export interface UIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  /** Default 200. */
  readonly status?: number;
  /** Added to the UI message stream headers (which win for the names they set). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A Web `Response` streaming the run as the AI SDK's UI message stream (server-sent events with its
 * headers), for Next.js route handlers, Hono and any fetch-style server. When the client goes away
 * the server cancels the body, which aborts an `agent.stream` run.
 */
export function createUIMessageStreamResponse(source: UIStreamSource, options: UIMessageStreamResponseOptions = {}): Response {
  const { status, headers, ...streamOptions } = options;
  const encoder = new TextEncoder();
  const body = toUIMessageStream(source, streamOptions).pipeThrough(
    new TransformStream<unknown, Uint8Array>({
      transform(chunk, controller) {
        controller.enqueue(encoder.encode(sseEvent(chunk)));
      },
      flush(controller) {
        controller.enqueue(encoder.encode(sseDone));
      },
    }),
  );
  return new Response(body, { status: status ?? 200, headers: { ...headers, ...uiMessageStreamHeaders } });
}
