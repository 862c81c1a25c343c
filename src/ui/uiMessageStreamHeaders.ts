/** The response headers of a UI message stream, as the AI SDK's `UI_MESSAGE_STREAM_HEADERS` (the same in `ai` 6 and 7). */
export const uiMessageStreamHeaders: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  // Proxies such as nginx would otherwise hold the events back.
  "x-accel-buffering": "no",
});

/** One chunk as a server-sent event: `data: <JSON>` and a blank line. */
export function sseEvent(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The event that ends the stream, as the AI SDK sends it. */
export const sseDone = "data: [DONE]\n\n";
