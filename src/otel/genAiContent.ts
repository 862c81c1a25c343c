// Content in the shapes of the GenAI semantic conventions' JSON schemas
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/#inference): messages as
// { role, parts, name? }, parts typed text / tool_call / tool_call_response. Read only when the
// tracer captures content and the span records. Call ids and tool names are cut to 64 characters.
import type { ToolSpec } from "../chat/chatGenerator";
import type { ChatMessageJSON, ToolCallJSON } from "../chat/chatMessage";
import { truncateForEcho } from "../util/truncate";

type Part =
  | { type: "text"; content: string }
  | { type: "reasoning"; content: string }
  | { type: "tool_call"; id: string | null; name: string; arguments: Record<string, unknown> | string }
  | { type: "tool_call_response"; id: string | null; response: string };

/** A request's messages as `gen_ai.input.messages` (JSON) and its system messages as `gen_ai.system_instructions` (JSON, undefined when there are none). */
export function inputContent(messages: readonly ChatMessageJSON[]): { input: string; systemInstructions: string | undefined } {
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
export function outputContent(replies: readonly ChatMessageJSON[], finishReasons: readonly string[]): string {
  const ownReason = (reply: ChatMessageJSON) => (typeof reply.meta.finishReason === "string" ? truncateForEcho(reply.meta.finishReason) : undefined);
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

function parts(message: ChatMessageJSON): Part[] {
  return message.content.map((part): Part => {
    if ("text" in part) return { type: "text", content: part.text };
    if ("reasoning" in part) return { type: "reasoning", content: part.reasoning.reasoning_text };
    if ("tool_call" in part) return toolCallPart(part.tool_call);
    if ("tool_call_result" in part) return { type: "tool_call_response", id: idOf(part.tool_call_result.origin.id), response: typeof part.tool_call_result.result === "string" ? part.tool_call_result.result : "[a result with images or files]" };
    // Media: what it is, never its bytes (the rule for traces). Finished with the media work.
    const media = "image" in part ? part.image : part.file;
    return { type: "text", content: `[${"image" in part ? "image" : "file"} ${media.mime_type ?? "of unknown type"}]` };
  });
}

function toolCallPart(call: ToolCallJSON): Part {
  return { type: "tool_call", id: idOf(call.id), name: truncateForEcho(call.tool_name), arguments: call.arguments };
}

// Ids and names are the model's: cut like every id and name from outside.
function idOf(id: string | null | undefined): string | null {
  return id === undefined || id === null ? null : truncateForEcho(id);
}
