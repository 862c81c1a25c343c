import type { RunQueue } from "../bullmq/runQueue";
import type { RunEventEntry } from "../bullmq/runEvents";

/** Options of `resumableRunEvents`. */
export interface ResumableRunEventsOptions {
  /** Stops following (the client went away). */
  signal?: AbortSignal;
  /** How long one blocking read waits before it checks that the run still exists (RunQueue.events). Default 5000 ms. */
  pollMs?: number;
}

/**
 * The events for `useChat`'s resume (`GET {api}/{chatId}/stream`, sent after a reload or a dropped
 * connection): the whole run replayed from its first event, then followed live to the end of the
 * current leg; undefined when the run has ended (done, failed, cancelled: answer 204, the client's
 * stored messages hold it). The AI SDK's resume sends no position, so the stream starts again: give
 * `toUIMessageStream` the run id as the `messageId`, and useChat replaces the message it has with the
 * replayed one instead of adding to it — nothing lost, nothing doubled. Earlier legs' ends (the
 * `paused` and `stopped` events that a resume or continue went past) are left out, so the replay is
 * one message; the current leg's end is kept.
 *
 * @example
 * const events = await resumableRunEvents(queue, runIdOf(chatId), { signal: req.signal });
 * if (!events) return new Response(null, { status: 204 });
 * return createUIMessageStreamResponse(events, { messageId: runIdOf(chatId) });
 */
export async function resumableRunEvents(queue: RunQueue, runId: string, options: ResumableRunEventsOptions = {}): Promise<AsyncIterable<RunEventEntry> | undefined> {
  const { status } = await queue.status(runId);
  if (status === "done" || status === "failed" || status === "cancelled") return undefined;
  return replay(queue, runId, options);
}

async function* replay(queue: RunQueue, runId: string, options: ResumableRunEventsOptions): AsyncGenerator<RunEventEntry, void, undefined> {
  let after: string | undefined;
  // Leg ends seen so far: the leg-th end is the current leg's; the ones before it were resumed past.
  let ends = 0;
  for (;;) {
    let end: RunEventEntry | undefined;
    for await (const entry of queue.events(runId, { ...options, ...(after !== undefined && { after }) })) {
      after = entry.id;
      if (entry.event.type === "paused" || entry.event.type === "stopped") end = entry;
      else yield entry;
    }
    if (!end) return;
    if ((await queue.status(runId)).leg <= ends) {
      yield end;
      return;
    }
    ends += 1;
  }
}
