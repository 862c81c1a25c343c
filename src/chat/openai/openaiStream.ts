import type OpenAI from "openai";
import { AbortError } from "../../errors";
import type { ChatGeneratorResponse } from "../chatGenerator";
import type { StreamingCallback } from "../streaming";
import { assistantReply, toUsage } from "./openaiConverter";

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

interface ChoiceState {
  content: string | null;
  refusal: string | null;
  finishReason?: string;
  toolCalls: Map<number, { id?: string; name: string; arguments: string }>;
}

/**
 * Consumes a Chat Completions stream: forwards text and tool-call deltas to the callback as they
 * arrive, assembles tool calls by `index`, and returns the same replies a non-streaming call
 * would. Ends with a `finish` chunk. Rejects with an AbortError when `signal` aborts mid-stream.
 */
export async function collectStream(stream: AsyncIterable<Chunk>, callback: StreamingCallback, signal?: AbortSignal): Promise<ChatGeneratorResponse> {
  const choices = new Map<number, ChoiceState>();
  let model: string | undefined;
  let usage: OpenAI.Completions.CompletionUsage | undefined;
  for await (const chunk of stream) {
    model ??= chunk.model;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      let state = choices.get(choice.index ?? 0);
      if (!state) {
        state = { content: null, refusal: null, toolCalls: new Map() };
        choices.set(choice.index ?? 0, state);
      }
      const delta = choice.delta ?? {};
      if (typeof delta.content === "string" && delta.content !== "") {
        state.content = (state.content ?? "") + delta.content;
        await callback({ type: "text", delta: delta.content });
      }
      if (typeof delta.refusal === "string" && delta.refusal !== "") state.refusal = (state.refusal ?? "") + delta.refusal;
      for (const [position, part] of (delta.tool_calls ?? []).entries()) {
        const index = part.index ?? position;
        const call = state.toolCalls.get(index) ?? { name: "", arguments: "" };
        if (part.id) call.id = part.id;
        // Assigned, as the SDK's own accumulator does: some compatible servers repeat the name on every delta.
        if (part.function?.name) call.name = part.function.name;
        const argumentsDelta = part.function?.arguments ?? "";
        call.arguments += argumentsDelta;
        state.toolCalls.set(index, call);
        await callback({
          type: "toolCallDelta",
          index,
          ...(part.id && { id: part.id }),
          ...(part.function?.name && { toolName: part.function.name }),
          argumentsDelta,
        });
      }
      if (choice.finish_reason) state.finishReason = choice.finish_reason;
    }
  }
  // The SDK ends the iteration quietly on abort; a partial reply must not pass for a whole one.
  if (signal?.aborted) throw new AbortError("The model request was aborted.", { cause: signal.reason });
  const replies = [...choices.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, state]) =>
      assistantReply(
        { content: state.content, refusal: state.refusal, toolCalls: [...state.toolCalls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call) },
        { model, index, finishReason: state.finishReason, usage: index === 0 ? toUsage(usage) : undefined },
      ),
    );
  const finishReason = choices.get(0)?.finishReason;
  await callback({ type: "finish", finishReason: finishReason ?? "stop" });
  return { replies, meta: { model, usage: toUsage(usage), finishReason } };
}
