import type { ChatGeneratorResponse } from "../chatGenerator";
import type { StreamingCallback } from "../streaming";
import type { AbortScope } from "../../util/abortScope";
import { replyOf, responseFailure } from "./fromResponse";
import { readProviderValue } from "./readProviderValue";
import { streamEmitter } from "../streamEmitter";
import { readStream } from "./readStream";
import {
  argumentsDeltaEventSchema,
  deltaEventSchema,
  errorEventSchema,
  eventSchema,
  failedEventSchema,
  finalEventSchema,
  itemAddedEventSchema,
  itemDoneEventSchema,
  isJsonObject,
  responseSchema,
} from "./responsesSchemas";
import { type ProviderCall, providerFault } from "./toChatGeneratorError";

/**
 * Consumes a Responses API stream: forwards output text, reasoning summary text and function-call
 * deltas to the callback as they arrive (a call's `index` is its place among the response's
 * calls), and returns, after a `finish` chunk, the reply a non-streaming call would: built from
 * the final response of `response.completed` (or `response.incomplete`), whose output, when a
 * server leaves it empty, is the items of the `response.output_item.done` events. Every wait (for
 * an event, for the callback) ends as soon as `scope` aborts. Rejects with a ChatGeneratorError
 * on `response.failed`, on an `error` event, on an event of the wrong shape, and when the stream
 * ends before the response is complete.
 */
export async function collectResponsesStream(stream: AsyncIterable<unknown>, callback: StreamingCallback, scope: AbortScope, call: ProviderCall): Promise<ChatGeneratorResponse> {
  const { model } = call;
  const emit = streamEmitter(callback, scope);
  const calls = new StreamedCalls();
  const doneItems = new Map<number, unknown>();
  let final: { response: unknown; event: string } | undefined;
  let eventNumber = 0;
  events: for await (const value of readStream(stream, scope, call)) {
    const what = `stream event ${++eventNumber}`;
    const read = <T extends Parameters<typeof readProviderValue>[0]>(schema: T) => readProviderValue(schema, value, model, what, "Responses API");
    switch (read(eventSchema).type) {
      case "response.output_text.delta": {
        const { delta } = read(deltaEventSchema);
        if (delta) await emit({ type: "text", delta });
        break;
      }
      case "response.reasoning_summary_text.delta": {
        const { delta } = read(deltaEventSchema);
        if (delta) await emit({ type: "reasoning", delta });
        break;
      }
      case "response.output_item.added": {
        const { output_index: outputIndex, item } = read(itemAddedEventSchema);
        if (item) {
          const index = calls.add(outputIndex, item.id);
          await emit({ type: "toolCallDelta", index, ...(item.call_id && { id: item.call_id }), ...(item.name && { toolName: item.name }), argumentsDelta: item.arguments ?? "" });
        }
        break;
      }
      case "response.function_call_arguments.delta": {
        const { output_index: outputIndex, item_id: itemId, delta } = read(argumentsDeltaEventSchema);
        if (delta) await emit({ type: "toolCallDelta", index: calls.indexOf(outputIndex, itemId), argumentsDelta: delta });
        break;
      }
      case "response.output_item.done": {
        const { output_index: outputIndex, item } = read(itemDoneEventSchema);
        doneItems.set(outputIndex ?? doneItems.size, item);
        break;
      }
      case "response.completed":
      case "response.incomplete":
        final = { response: read(finalEventSchema).response, event: what };
        break events;
      case "response.failed":
        throw responseFailure(model, read(failedEventSchema).response?.error);
      case "error":
        throw responseFailure(model, read(errorEventSchema));
    }
  }
  if (!final) throw providerFault(model, "the stream ended before the response was complete (no response.completed event); the reply is incomplete.");
  const response = readProviderValue(responseSchema, withOutput(final.response, doneItems), model, `the response of ${final.event}`, "Responses API");
  const result = replyOf(response, model);
  await emit({ type: "finish", finishReason: result.meta.finishReason });
  return result;
}

/** The final response, with the streamed items as its output when it came without any. */
function withOutput(response: unknown, doneItems: ReadonlyMap<number, unknown>): unknown {
  if (!isJsonObject(response) || doneItems.size === 0) return response;
  if (Array.isArray(response.output) && response.output.length > 0) return response;
  return { ...response, output: [...doneItems.entries()].sort(([a], [b]) => a - b).map(([, item]) => item) };
}

/** The index of each streamed function call among the response's calls, found by its output index or its item id. */
class StreamedCalls {
  readonly #byOutputIndex = new Map<number, number>();
  readonly #byItemId = new Map<string, number>();
  #count = 0;

  /** Registers a new call and returns its index. */
  add(outputIndex: number | null | undefined, itemId: string | null | undefined): number {
    const index = this.#count++;
    if (outputIndex != null) this.#byOutputIndex.set(outputIndex, index);
    if (itemId != null) this.#byItemId.set(itemId, index);
    return index;
  }

  /** The index of a known call, else a new call's. */
  indexOf(outputIndex: number | null | undefined, itemId: string | null | undefined): number {
    const known = (outputIndex != null ? this.#byOutputIndex.get(outputIndex) : undefined) ?? (itemId != null ? this.#byItemId.get(itemId) : undefined);
    return known ?? this.add(outputIndex, itemId);
  }
}
