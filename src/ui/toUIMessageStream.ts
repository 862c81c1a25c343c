import type { AgentStreamEvent } from "../agent/agentStream";
import type { RunEventEntry } from "../bullmq/runEvents";
import { ConfigurationError } from "../errors";
import { UIChunkMapper } from "./uiChunkMapper";
import type { UIMessageChunk } from "./uiMessageChunk";
import type { ToUIMessageStreamOptions } from "./uiStreamOptions";
import { UIStreamError } from "./uiStreamError";

/** What `toUIMessageStream` reads: `agent.stream(...)`, or `queue.events(runId)` of `toolwright/bullmq`. */
export type UIStreamSource = AsyncIterable<AgentStreamEvent<unknown>> | AsyncIterable<RunEventEntry>;

const defaultMaxBufferedBytes = 8 * 1024 * 1024;

/**
 * Turns a run's events into the AI SDK's UI message stream: `start`, then per step `start-step`,
 * text and reasoning parts, tool parts (input streaming, input, output or error, approval requests
 * for calls waiting for confirmation), `finish-step`, then a `data-state` part with the chosen state
 * keys and `finish` — or `error`/`abort`. The source is read as fast as it comes; cancelling the
 * stream (a client that went away) ends the source's iteration, which aborts an `agent.stream` run
 * (a `RunQueue` run goes on, to be followed again).
 *
 * @example
 * return createUIMessageStreamResponse(agent.stream({ messages }), { state: ["refunds"] });
 */
export function toUIMessageStream(source: UIStreamSource, options: ToUIMessageStreamOptions = {}): ReadableStream<UIMessageChunk> {
  const maxBufferedBytes = checkedLimit(options.maxBufferedBytes);
  const mapper = new UIChunkMapper(options);
  let iterator: AsyncIterator<unknown> | undefined;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    // A source that throws while closing has nothing left to give: the stream has ended anyway.
    void Promise.resolve()
      .then(() => iterator?.return?.())
      .catch(() => {});
  };
  return new ReadableStream<UIMessageChunk>(
    {
      start(controller) {
        const send = (chunks: readonly UIMessageChunk[]): boolean => {
          for (const chunk of chunks) controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) >= 0) return true;
          stop();
          controller.error(new UIStreamError(maxBufferedBytes));
          return false;
        };
        void (async () => {
          if (!send(mapper.start())) return;
          try {
            iterator = (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
            while (!stopped) {
              const next = await iterator.next();
              if (stopped) return;
              if (next.done) break;
              if (!send(mapper.map(next.value))) return;
              if (mapper.ended) {
                stop();
                break;
              }
            }
            if (!send(mapper.end())) return;
          } catch (error) {
            if (stopped || !send(mapper.fail(error))) return;
          }
          stopped = true;
          controller.close();
        })();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: maxBufferedBytes, size: chunkBytes },
  );
}

// A chunk's size as the client gets it, near enough: its JSON text.
function chunkBytes(chunk: UIMessageChunk): number {
  return JSON.stringify(chunk).length;
}

function checkedLimit(value: unknown): number {
  if (value === undefined) return defaultMaxBufferedBytes;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1024) {
    throw new ConfigurationError("toUIMessageStream", `toUIMessageStream was given maxBufferedBytes ${String(value)}; give a whole number of bytes of at least 1024.`);
  }
  return value;
}
