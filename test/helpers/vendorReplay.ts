import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { MockResponse } from "./mockOpenAIServer";

const folder = join(__dirname, "../fixtures/vendors");

/** A recorded response body of `vendor` (test/fixtures/vendors/<vendor>/<file>), parsed. */
export function recordedBody(vendor: string, file: string): any {
  return JSON.parse(readFileSync(join(folder, vendor, file), "utf8"));
}

/** The events of a recorded stream (`.chunks.txt`: one event's data per line), parsed. */
export function recordedEvents(vendor: string, file: string): any[] {
  return readFileSync(join(folder, vendor, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** A recorded Chat Completions body as the server's answer. */
export function chatJsonReplay(file: string): MockResponse {
  return { kind: "json", body: recordedBody("openai", file) };
}

/** A recorded Chat Completions stream as the server's answer: its chunks as `data:` events, then `[DONE]`. */
export function chatStreamReplay(file: string): MockResponse {
  return { kind: "sse", chunks: recordedEvents("openai", file) };
}

/** A recorded Responses API body as the server's answer. */
export function responsesJsonReplay(file: string): MockResponse {
  return { kind: "json", body: recordedBody("openai", file) };
}

/**
 * The streamed responses of a recording, one answer per response (a recording of a tool loop
 * holds several, each from its `response.created`), each event named by its `type` as the API
 * names them.
 */
export function responsesStreamReplays(file: string): MockResponse[] {
  const turns: any[][] = [];
  for (const event of recordedEvents("openai", file)) {
    if (event.type === "response.created" || turns.length === 0) turns.push([]);
    turns.at(-1)!.push(event);
  }
  return turns.map((events) => ({ kind: "events", events: events.map((data) => ({ event: data.type, data })) }));
}
