import type { ChatGeneratorResponse } from "../chatGenerator";
import type { StreamingCallback } from "../streaming";
import type { AbortScope } from "../../util/abortScope";
import { chunkSchema, type ProviderUsage } from "./completionSchemas";
import { assistantReply, toUsage } from "./openaiConverter";
import { readProviderValue } from "./readProviderValue";
import { streamEmitter } from "../streamEmitter";
import { readStream } from "./readStream";
import { type ProviderCall, providerFault } from "./toChatGeneratorError";

interface ChoiceState {
  content: string | null;
  refusal: string | null;
  finishReason?: string;
  toolCalls: Map<number, { id?: string; name: string; arguments: string }>;
}

/**
 * Consumes a Chat Completions stream: forwards text and tool-call deltas to the callback as they
 * arrive, assembles tool calls by `index`, and returns the same replies a non-streaming call
 * would, after a `finish` chunk. Every wait (for a chunk, for the callback) ends as soon as
 * `scope` aborts. Rejects with a ChatGeneratorError when the stream fails, sends a chunk that is
 * not a chat completion chunk, carries no choice, or ends before every choice has a `finish_reason`.
 */
export async function collectStream(stream: AsyncIterable<unknown>, callback: StreamingCallback, scope: AbortScope, call: ProviderCall): Promise<ChatGeneratorResponse> {
  const { model } = call;
  const emit = streamEmitter(callback, scope);
  const choices = new Map<number, ChoiceState>();
  let responseModel: string | undefined;
  let usage: ProviderUsage = undefined;
  let eventNumber = 0;
  for await (const event of readStream(stream, scope, call)) {
    const chunk = readProviderValue(chunkSchema, event, model, `stream chunk ${++eventNumber}`, "Chat Completions");
    responseModel ??= chunk.model ?? undefined;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const index = choice.index ?? 0;
      let state = choices.get(index);
      if (!state) {
        state = { content: null, refusal: null, toolCalls: new Map() };
        choices.set(index, state);
      }
      const delta = choice.delta ?? {};
      if (delta.content) {
        state.content = (state.content ?? "") + delta.content;
        await emit({ type: "text", delta: delta.content });
      }
      if (delta.refusal) state.refusal = (state.refusal ?? "") + delta.refusal;
      for (const [position, part] of (delta.tool_calls ?? []).entries()) {
        const callIndex = part.index ?? position;
        const toolCall = state.toolCalls.get(callIndex) ?? { name: "", arguments: "" };
        if (part.id) toolCall.id = part.id;
        if (part.function?.name) toolCall.name = mergeToolName(toolCall.name, part.function.name);
        const argumentsDelta = part.function?.arguments ?? "";
        toolCall.arguments += argumentsDelta;
        state.toolCalls.set(callIndex, toolCall);
        await emit({
          type: "toolCallDelta",
          index: callIndex,
          ...(part.id && { id: part.id }),
          ...(part.function?.name && { toolName: part.function.name }),
          argumentsDelta,
        });
      }
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
    }
  }
  const ordered = [...choices.entries()].sort(([a], [b]) => a - b);
  if (ordered.length === 0) throw providerFault(model, "the model answered with no choices, so there is no reply to use.");
  const unfinished = ordered.find(([, state]) => state.finishReason === undefined);
  if (unfinished) throw providerFault(model, `the stream ended before the model finished (no finish_reason for choice ${unfinished[0]}); the reply is incomplete.`);
  const replies = ordered.map(([index, state]) =>
    assistantReply(
      { content: state.content, refusal: state.refusal, toolCalls: [...state.toolCalls.entries()].sort(([a], [b]) => a - b).map(([, toolCall]) => toolCall) },
      { model: responseModel, index, finishReason: state.finishReason, usage: index === 0 ? toUsage(usage) : undefined },
    ),
  );
  const finishReason = ordered[0]![1].finishReason!;
  await emit({ type: "finish", finishReason });
  return { replies, meta: { model: responseModel, usage: toUsage(usage), finishReason } };
}

/**
 * Adds a streamed piece of a tool name to the name so far. Servers differ: most send the name
 * once, some repeat it whole on every delta, some send it growing, some in pieces. So a first
 * piece is the name, a piece equal to the name so far is a repeat (kept), a piece that starts with
 * the name so far replaces it, and any other piece is appended.
 */
function mergeToolName(sofar: string, piece: string): string {
  return sofar === "" || piece.startsWith(sofar) ? piece : sofar + piece;
}
