import type { ChatGenerator, ChatGeneratorDefinition, ChatGeneratorRequest, ChatGeneratorResponse } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import { ConfigurationError, DefinitionError, describeError } from "../errors";
import type { JsonValue } from "../state/jsonCodec";
import { describeKind } from "../util/describeValue";

/** One scripted answer: a reply, several replies, or a function of the request returning them. */
export type ScriptEntry =
  | ChatMessage
  | readonly ChatMessage[]
  | ((request: ChatGeneratorRequest) => ChatMessage | readonly ChatMessage[] | Promise<ChatMessage | readonly ChatMessage[]>);

/**
 * A chat model that answers from a script, one entry per call, for tests and offline examples.
 * It streams its replies through the request's streaming callback like a real model would.
 *
 * @example
 * const model = new ScriptedChatGenerator([
 *   ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "1", toolName: "search", arguments: { query: "x" } }] }),
 *   ChatMessage.fromAssistant("Found it."),
 * ]);
 */
export class ScriptedChatGenerator implements ChatGenerator {
  /** What traces and lifecycle events name as the model and the provider. */
  readonly model = "scripted";
  readonly provider = "toolwright.scripted";
  /** Every request received, in order. */
  readonly requests: ChatGeneratorRequest[] = [];
  readonly #script: readonly ScriptEntry[];

  constructor(script: readonly ScriptEntry[]) {
    if (!Array.isArray(script)) throw new ConfigurationError("ScriptedChatGenerator", `ScriptedChatGenerator needs an array of script entries, got ${describeKind(script)}.`);
    this.#script = [...script];
  }

  /** How many entries the script has not answered yet. */
  get remaining(): number {
    return this.#script.length - this.requests.length;
  }

  /**
   * This generator as data: `{ type: "ScriptedChatGenerator", options: { script } }`, the whole
   * script (answered entries included), each entry a message's JSON or an array of them;
   * `scriptedChatGeneratorFromDefinition` reverses it. Throws DefinitionError for a function entry,
   * which has no data form.
   */
  toJSON(): ChatGeneratorDefinition {
    const script = this.#script.map((entry, i): JsonValue => {
      const at = [...scriptPath, i];
      if (typeof entry === "function") {
        throw new DefinitionError(at, "is a function, which has no data form; script the message itself (a ChatMessage or an array of them), or name the generator through registry.chatGenerators.");
      }
      return Array.isArray(entry) ? entry.map((message: unknown, j) => messageJSON(message, [...at, j])) : messageJSON(entry, at);
    });
    return { type: "ScriptedChatGenerator", options: { script } };
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    request.signal?.throwIfAborted();
    const call = this.requests.length + 1;
    // The Agent passes its live history; a snapshot keeps recorded requests (and what a function
    // entry kept) as they were at this call.
    const snapshot: ChatGeneratorRequest = { ...request, messages: [...request.messages] };
    this.requests.push(snapshot);
    const entry = this.#script[call - 1];
    if (entry === undefined) {
      throw new ConfigurationError(
        "ScriptedChatGenerator",
        `ScriptedChatGenerator received call ${call}, but its script has ${this.#script.length} ${this.#script.length === 1 ? "entry" : "entries"}; add an entry for every model call the run makes.`,
      );
    }
    const answer = typeof entry === "function" ? await entry(snapshot) : entry;
    const replies = answer instanceof ChatMessage ? [answer] : [...answer];
    for (const [i, reply] of replies.entries()) {
      if (!(reply instanceof ChatMessage)) {
        throw new ConfigurationError("ScriptedChatGenerator", `ScriptedChatGenerator script entry ${call} gave ${describeKind(reply)} at reply ${i}; give ChatMessage objects.`);
      }
    }
    if (request.streamingCallback) await streamReplies(replies, request);
    return { replies, meta: { model: "scripted", finishReason: replies.some((r) => r.toolCalls.length > 0) ? "tool_calls" : "stop" } };
  }
}

// Where `agent.toJSON()` puts the script.
const scriptPath = ["chatGenerator", "options", "script"] as const;

function messageJSON(message: unknown, at: readonly (string | number)[]): JsonValue {
  if (!(message instanceof ChatMessage)) throw new DefinitionError(at, `is ${describeKind(message)}, not a ChatMessage; script ChatMessage objects, or arrays of them.`);
  try {
    return message.toJSON() as unknown as JsonValue;
  } catch (error) {
    // meta or tool-call arguments holding a value JSON cannot write (a BigInt).
    throw new DefinitionError(at, `has no JSON form (${describeError(error)}); keep its meta and arguments to JSON data.`, { cause: error });
  }
}

async function streamReplies(replies: readonly ChatMessage[], request: ChatGeneratorRequest): Promise<void> {
  const callback = request.streamingCallback!;
  // Numbered across the whole response: deltas carry no reply boundary, so an index per reply would merge calls.
  let index = 0;
  for (const reply of replies) {
    const text = reply.text;
    if (text) for (const piece of text.match(/\S+\s*|\s+/g) ?? []) await callback({ type: "text", delta: piece });
    for (const toolCall of reply.toolCalls) {
      const argumentsDelta = typeof toolCall.arguments === "string" ? toolCall.arguments : JSON.stringify(toolCall.arguments);
      await callback({ type: "toolCallDelta", index: index++, id: toolCall.id, toolName: toolCall.toolName, argumentsDelta });
    }
  }
  await callback({ type: "finish", finishReason: replies.some((r) => r.toolCalls.length > 0) ? "tool_calls" : "stop" });
}
