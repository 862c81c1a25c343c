// Content in the shapes of the GenAI semantic conventions' JSON schemas
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/#inference, gen-ai-input-messages.json
// of v1.41.0, which @opentelemetry/semantic-conventions 1.45 points to): messages as
// { role, parts, name? }, parts typed text / reasoning / tool_call / tool_call_response / uri, and
// toolwright.blob for inline media. Read only when the tracer captures content and the span
// records. Call ids and tool names are cut to 64 characters.
import type { ToolSpec } from "../chat/chatGenerator";
import { rawArgumentsKey, type ToolCallJSON } from "../chat/chatMessage";
import type { MediaDescriptor } from "../media/mediaDescriptor";
import type { ObservedMessageJSON, ObservedResultPartJSON } from "../observe/observedMessage";
import { truncateForEcho } from "../util/truncate";

type MediaPart =
  | { type: "uri"; modality: string; mime_type: string | null; uri: string }
  | { type: "toolwright.blob"; modality: string; mime_type: string | null; size_bytes: number; sha256: string; filename?: string };

type Part =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "tool_call"; id: string | null; name: string; arguments: Record<string, unknown> | string }
  | { type: "tool_call_response"; id: string | null; response: string | Array<{ type: "text"; content: string } | MediaPart> }
  | MediaPart;

/** A request's messages as `gen_ai.input.messages` (JSON) and its system messages as `gen_ai.system_instructions` (JSON, undefined when there are none). */
export function inputContent(messages: readonly ObservedMessageJSON[]): { input: string; systemInstructions: string | undefined } {
  const input: Array<{ role: string; parts: Part[]; name?: string }> = [];
  const instructions: Part[] = [];
  for (const message of messages) {
    if (message.role === "system") instructions.push(...parts(message));
    else input.push(message.name === null ? { role: message.role, parts: parts(message) } : { role: message.role, parts: parts(message), name: message.name });
  }
  return { input: JSON.stringify(input), systemInstructions: instructions.length > 0 ? JSON.stringify(instructions) : undefined };
}

/**
 * A response's replies as `gen_ai.output.messages` (JSON), each with a `finish_reason` (the
 * conventions require one): the reply's own `meta.finishReason`; when no reply has one, the
 * response's (the event's only finish reason); when neither names one, `tool_call` for a reply
 * with tool calls, else `stop`. Reasons are cut to 64 characters.
 */
export function outputContent(replies: readonly ObservedMessageJSON[], finishReasons: readonly string[]): string {
  const ownReason = (reply: ObservedMessageJSON) => (typeof reply.meta.finishReason === "string" ? truncateForEcho(reply.meta.finishReason) : undefined);
  const responseReason = replies.some((reply) => ownReason(reply) !== undefined) ? undefined : finishReasons[0];
  return JSON.stringify(
    replies.map((reply) => {
      const finishReason = ownReason(reply) ?? responseReason ?? (reply.content.some((part) => "tool_call" in part) ? "tool_call" : "stop");
      return { role: reply.role, parts: parts(reply), finish_reason: finishReason };
    }),
  );
}

/** The tools offered to the model as `gen_ai.tool.definitions` (JSON). */
export function toolDefinitions(tools: readonly ToolSpec[]): string {
  return JSON.stringify(tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.parameters })));
}

function parts(message: ObservedMessageJSON): Part[] {
  return message.content.map((part): Part => {
    if ("text" in part) return { type: "text", content: part.text };
    if ("reasoning" in part) return { type: "reasoning", content: part.reasoning.reasoning_text };
    if ("tool_call" in part) return toolCallPart(part.tool_call);
    if ("tool_call_result" in part) {
      const { result, origin } = part.tool_call_result;
      return { type: "tool_call_response", id: idOf(origin.id), response: typeof result === "string" ? result : result.map(resultPart) };
    }
    return mediaPart("image" in part ? part.image : part.file);
  });
}

function resultPart(part: ObservedResultPartJSON): { type: "text"; content: string } | MediaPart {
  return "text" in part ? { type: "text", content: part.text } : mediaPart("image" in part ? part.image : part.file);
}

/**
 * An image or a file as a part, never its bytes: a URL reference is the conventions' `uri` part;
 * inline data would be their `blob` part, whose required `content` is the base64 itself, so it is
 * a `toolwright.blob` part instead (a GenericPart, which the schema allows) that has the blob's
 * `modality` and `mime_type` and, in place of the content, its size and SHA-256.
 */
function mediaPart(media: MediaDescriptor): MediaPart {
  const modality = modalityOf(media);
  const mimeType = media.mimeType ?? null;
  if (media.url !== undefined) return { type: "uri", modality, mime_type: mimeType, uri: media.url };
  const part: MediaPart = { type: "toolwright.blob", modality, mime_type: mimeType, size_bytes: media.bytes ?? 0, sha256: media.sha256 ?? "" };
  return media.filename === undefined ? part : { ...part, filename: media.filename };
}

// The conventions' modalities are image, video and audio, or any other string: a PDF or a CSV is a "document".
function modalityOf(media: MediaDescriptor): string {
  if (media.type === "image") return "image";
  const major = media.mimeType?.split("/")[0];
  return major === "image" || major === "audio" || major === "video" ? major : "document";
}

// Arguments the model sent as text that is not JSON are shown as that text (the JSON form keeps it in extra).
function toolCallPart(call: ToolCallJSON): Part {
  const raw = call.extra?.[rawArgumentsKey];
  return { type: "tool_call", id: idOf(call.id), name: truncateForEcho(call.tool_name), arguments: typeof raw === "string" ? raw : call.arguments };
}

// Ids and names are the model's: cut like every id and name from outside.
function idOf(id: string | null | undefined): string | null {
  return id === undefined || id === null ? null : truncateForEcho(id);
}
