import type { AbortScope } from "../util/abortScope";
import type { ChatGeneratorResponse, TokenUsage } from "../chat/chatGenerator";
import type { ReasoningContent } from "../chat/chatMessage";
import type { StreamingCallback } from "../chat/streaming";
import { streamEmitter } from "../chat/streamEmitter";
import { isRecord } from "./isRecord";
import { ReplySize } from "./replySize";
import { type ModelCall, providerFault, toChatGeneratorError } from "./toChatGeneratorError";
import {
  buildResponse,
  type FinishReason,
  inputText,
  mergeMetadata,
  optionalString,
  type ProviderMetadata,
  readFinishReason,
  readProviderMetadata,
  readText,
  readUsage,
  readWarnings,
  reasoningContent,
  toolCallOf,
} from "./aiSdkReply";

type Metadata = ProviderMetadata | undefined;

interface ReasoningState {
  text: string;
  metadata: Metadata;
}

interface ToolCallState {
  readonly index: number;
  readonly id: string | undefined;
  toolName: string;
  /** The input deltas so far. */
  input: string;
  /** Whether the deltas are JSON text (else raw text, forwarded only whole from the `tool-call` part). */
  readonly json: boolean;
  /** What was forwarded to the callback as `argumentsDelta`. */
  forwarded: string;
  /** The input of the call's `tool-call` part, which wins over the deltas. */
  final?: string;
  /** The provider metadata of its `tool-input-start` and `tool-call` parts (Gemini's thought signature). */
  metadata: Metadata;
}

/**
 * Consumes the stream of a `doStream` call: forwards text, reasoning and tool-input deltas to the
 * callback as they arrive (a tool call's `index` is its position among the response's calls), and
 * returns the reply a `doGenerate` call would, after a `finish` chunk. Every wait (for a part, for
 * the callback) ends as soon as `scope` aborts. Rejects with a ChatGeneratorError when the stream
 * fails, sends an `error` part or a part whose text or tool name is not a string, or ends without
 * a `finish` part. Tool calls the provider ran itself, sources and files are left out.
 */
export async function collectAiSdkStream(result: unknown, callback: StreamingCallback, scope: AbortScope, call: ModelCall): Promise<ChatGeneratorResponse> {
  const stream = isRecord(result) ? result.stream : undefined;
  if (typeof stream !== "object" || stream === null || typeof (stream as ReadableStream).getReader !== "function") {
    throw providerFault(call, "doStream returned no ReadableStream, so there is no reply to use.");
  }
  const emit = streamEmitter(callback, scope);
  const size = new ReplySize(call);
  let text = "";
  const reasoning: ReasoningState[] = [];
  const openReasoning = new Map<string, ReasoningState>();
  const toolCalls: ToolCallState[] = [];
  const openToolCalls = new Map<string, ToolCallState>();
  const providerExecuted = new Set<string>();
  let responseModel: string | undefined;
  let responseId: string | undefined;
  let warnings: string[] = [];
  let finish: { finishReason: FinishReason; usage: TokenUsage | undefined } | undefined;

  const reasoningFor = (id: string): ReasoningState => {
    let state = openReasoning.get(id);
    if (!state) {
      state = { text: "", metadata: undefined };
      reasoning.push(state);
      openReasoning.set(id, state);
    }
    return state;
  };
  const startToolCall = async (id: string | undefined, toolName: string, input: string, json: boolean, metadata: Metadata): Promise<ToolCallState> => {
    const state: ToolCallState = { index: toolCalls.length, id, toolName, input, json, forwarded: json ? input : "", metadata };
    toolCalls.push(state);
    if (id !== undefined) openToolCalls.set(id, state);
    await emit({ type: "toolCallDelta", index: state.index, ...(id !== undefined && { id }), toolName, argumentsDelta: state.forwarded });
    return state;
  };

  const reader = readerOf(stream as ReadableStream<unknown>, call);
  let done = false;
  try {
    for (let partNumber = 1; ; partNumber++) {
      const next = await scope.raceIdle(read(reader)).catch((error: unknown) => {
        throw scope.aborted ? error : toChatGeneratorError(error, call, "thrown");
      });
      if (!isRecord(next)) throw providerFault(call, `reading stream part ${partNumber} gave no { done, value } result.`);
      if (next.done === true) {
        done = true;
        break;
      }
      const part = next.value;
      if (!isRecord(part)) continue;
      const where = () => `stream part ${partNumber} (${String(part.type)})`;
      const id = optionalString(part.id) ?? "";
      switch (part.type) {
        case "stream-start":
          warnings = readWarnings(part.warnings);
          break;
        case "response-metadata":
          responseModel = optionalString(part.modelId) ?? responseModel;
          responseId = optionalString(part.id) ?? responseId;
          break;
        case "text-delta": {
          const delta = readText(part, "delta", where, call);
          if (delta) {
            text += size.count(delta);
            await emit({ type: "text", delta });
          }
          break;
        }
        case "reasoning-start":
          openReasoning.delete(id);
          reasoningFor(id).metadata = readProviderMetadata(part.providerMetadata, size);
          break;
        case "reasoning-delta": {
          const state = reasoningFor(id);
          const delta = readText(part, "delta", where, call);
          state.metadata = mergeMetadata(state.metadata, readProviderMetadata(part.providerMetadata, size));
          if (delta) {
            state.text += size.count(delta);
            await emit({ type: "reasoning", delta });
          }
          break;
        }
        case "reasoning-end": {
          const state = openReasoning.get(id);
          if (state) state.metadata = mergeMetadata(state.metadata, readProviderMetadata(part.providerMetadata, size));
          openReasoning.delete(id);
          break;
        }
        case "tool-input-start": {
          if (part.providerExecuted === true) {
            providerExecuted.add(id);
            break;
          }
          await startToolCall(size.count(optionalString(part.id)), size.count(readText(part, "toolName", where, call) ?? ""), "", part.inputEncoding !== "text", readProviderMetadata(part.providerMetadata, size));
          break;
        }
        case "tool-input-delta": {
          const state = openToolCalls.get(id);
          const delta = readText(part, "delta", where, call);
          if (!state || !delta || state.final !== undefined) break;
          state.input += size.count(delta);
          if (state.json) {
            state.forwarded += delta;
            await emit({ type: "toolCallDelta", index: state.index, argumentsDelta: delta });
          }
          break;
        }
        case "tool-call": {
          const toolCallId = optionalString(part.toolCallId);
          if (part.providerExecuted === true || (toolCallId !== undefined && providerExecuted.has(toolCallId))) break;
          const toolName = size.count(readText(part, "toolName", where, call) ?? "");
          const input = size.count(inputText(part.input));
          const metadata = readProviderMetadata(part.providerMetadata, size);
          const started = toolCallId === undefined ? undefined : openToolCalls.get(toolCallId);
          if (started && started.final === undefined) {
            started.final = input;
            started.metadata = mergeMetadata(started.metadata, metadata);
            if (toolName !== "") started.toolName = toolName;
            // The deltas so far were a prefix of the input as a rule; what is missing goes out now.
            if (input.startsWith(started.forwarded) && input.length > started.forwarded.length) {
              const rest = input.slice(started.forwarded.length);
              started.forwarded = input;
              await emit({ type: "toolCallDelta", index: started.index, argumentsDelta: rest });
            }
          } else {
            (await startToolCall(size.count(toolCallId), toolName, input, true, metadata)).final = input;
          }
          break;
        }
        case "finish":
          finish = { finishReason: readFinishReason(part.finishReason, call), usage: readUsage(part.usage) };
          break;
        case "error":
          throw toChatGeneratorError(part.error, call, "errorPart");
      }
    }
  } finally {
    // Lets the provider release the response when the loop ended early.
    if (!done) cancel(reader);
  }
  if (!finish) throw providerFault(call, "the stream ended before the model finished (no finish part); the reply is incomplete.");
  const replyReasoning: ReasoningContent[] = reasoning.map((state) => reasoningContent(state.text, state.metadata, call.providerId));
  const replyToolCalls = toolCalls.map((state) => toolCallOf(state.id, state.toolName, state.final ?? state.input, state.metadata, call.providerId));
  const response = buildResponse({ text, reasoning: replyReasoning, toolCalls: replyToolCalls }, { responseModel, responseId, finishReason: finish.finishReason, usage: finish.usage, warnings }, call.modelId);
  await emit({ type: "finish", finishReason: finish.finishReason.reason });
  return response;
}

function readerOf(stream: ReadableStream<unknown>, call: ModelCall): ReadableStreamDefaultReader<unknown> {
  try {
    return stream.getReader();
  } catch (error) {
    throw providerFault(call, `the stream doStream returned cannot be read (${error instanceof Error ? error.message : "getReader threw"}).`, error);
  }
}

// A reader's read() rejects rather than throws; one that throws fails the call the same way.
function read(reader: ReadableStreamDefaultReader<unknown>): Promise<unknown> {
  try {
    return reader.read();
  } catch (error) {
    return Promise.reject(error);
  }
}

function cancel(reader: ReadableStreamDefaultReader<unknown>): void {
  try {
    reader.cancel().then(undefined, () => undefined);
  } catch {
    // A stream that cannot be cancelled is left to the abort of its request.
  }
}
