import type { ChatMessage, ContentInput, ToolCallResult } from "../chat/chatMessage";
import { ModelBehaviorError } from "../errors";
import { Tool } from "../tools/tool";
import { checkCount } from "./checkMaxTokens";

/** The name `readToolResult()` gives its tool, and the one `pruneToolResults` references. */
export const readToolResultName = "read_tool_result";

/** The model asked `read_tool_result` for a call id that no tool result in the conversation has. */
export class ToolResultNotFoundError extends ModelBehaviorError {
  /** The id the model asked for. */
  readonly callId: string;

  constructor(callId: string) {
    super(`No tool result has the call id '${callId.slice(0, 128)}'; pass the id after '#' in a "[result of …]" reference.`);
    this.callId = callId;
  }
}

/** Options of `readToolResult`. */
export interface ReadToolResultOptions {
  /** The most characters one read returns; the model pages through longer results with `offset`. Default 20,000. */
  readonly maxChars?: number;
  /** The tool's name; default `read_tool_result` (give `pruneToolResults` the same `readToolName`). */
  readonly name?: string;
}

/**
 * The tool that reads back a tool result `pruneToolResults` offloaded: by the call id in the
 * reference, from `state.messages` (where the full text stays), `maxChars` at a time from `offset`.
 * A result with images or files comes back whole, as its parts in order (text, images, files): the
 * tool returns them as a list, which the run sends as a result with media. Add it to the Agent's
 * tools beside the middleware.
 */
export function readToolResult(options: ReadToolResultOptions = {}): Tool {
  const maxChars = checkCount("readToolResult", "maxChars", options.maxChars ?? 20_000, 1);
  return new Tool({
    name: options.name ?? readToolResultName,
    description: `Read the full text of an earlier tool result that the conversation shows as a "[result of <tool> #<id>: N chars; …]" reference. Returns at most ${maxChars} characters from offset; call again with a larger offset for the rest.`,
    parameters: {
      type: "object",
      properties: {
        id: { type: "string", description: "The call id after '#' in the reference." },
        offset: { type: "integer", minimum: 0, description: "The first character to return; default 0." },
      },
      required: ["id"],
      additionalProperties: false,
    },
    usesState: true,
    function: ({ id, offset }, { state }) => {
      const found = findToolResult(state.get("messages", []) as readonly ChatMessage[], id as string);
      if (found.parts) return found.parts.map((p): ContentInput => (p.type === "text" ? p.text : p.type === "image" ? p.image : p.file));
      const text = found.result;
      const from = typeof offset === "number" ? offset : 0;
      const page = text.slice(from, from + maxChars);
      const end = from + page.length;
      return end < text.length ? `${page}\n[characters ${from}–${end} of ${text.length}; call again with offset ${end} for more]` : page;
    },
  });
}

function findToolResult(messages: readonly ChatMessage[], id: string): ToolCallResult {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "tool") continue;
    for (const result of message.toolCallResults) if (result.origin.id === id) return result;
  }
  throw new ToolResultNotFoundError(id);
}
