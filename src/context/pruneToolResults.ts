import { ChatMessage } from "../chat/chatMessage";
import { describeMedia } from "../media/describeMedia";
import type { Middleware } from "../run/middleware";
import { checkCount } from "./checkMaxTokens";
import { readToolResultName } from "./readToolResult";

/** Options of `pruneToolResults`. */
export interface PruneToolResultsOptions {
  /** How many of the newest tool results are sent as they are; default 2. */
  readonly keepLast?: number;
  /** Older results longer than this many characters are replaced by a reference; default 2,000. */
  readonly maxChars?: number;
  /** The name of the tool the reference tells the model to call; default `read_tool_result` (`readToolResult`'s). */
  readonly readToolName?: string;
  /** The middleware's name; default `"prune-tool-results"`. */
  readonly name?: string;
}

/**
 * A middleware that offloads old tool results: in what the model is sent, every tool result but the
 * newest `keepLast` that is longer than `maxChars` becomes a short reference — `[result of search
 * #call_1: 48213 chars; call read_tool_result to read it]` — while `state.messages` keeps the full
 * text, which the `readToolResult()` tool reads back by call id. A result with images or files
 * older than the newest `keepLast` becomes a reference whatever its length (media is what costs):
 * `[result of chart #call_1: 12 chars, [image image/png, 48213 bytes, sha256 ab12cd34ef56…]; call
 * read_tool_result to read it]`, and `readToolResult` gives its parts back. Results without a call
 * id have nothing to read them back by and are sent as they are.
 */
export function pruneToolResults(options: PruneToolResultsOptions = {}): Middleware {
  const subject = "pruneToolResults";
  const keepLast = checkCount(subject, "keepLast", options.keepLast ?? 2, 0);
  const maxChars = checkCount(subject, "maxChars", options.maxChars ?? 2_000, 0);
  const readName = options.readToolName ?? readToolResultName;
  // Messages are immutable: a pruned message is made once and reused at every later step.
  const pruned = new WeakMap<ChatMessage, ChatMessage>();
  return {
    name: options.name ?? "prune-tool-results",
    beforeModel({ messages }) {
      let toKeep = keepLast;
      let changed: ChatMessage[] | undefined;
      for (let i = messages.length - 1; i >= 0; i--) {
        const message = messages[i]!;
        if (message.role !== "tool") continue;
        if (toKeep > 0) {
          toKeep--;
          continue;
        }
        let replacement = pruned.get(message);
        if (replacement === undefined) pruned.set(message, (replacement = prunedMessage(message, maxChars, readName)));
        if (replacement === message) continue;
        changed ??= messages.slice();
        changed[i] = replacement;
      }
      return changed && { messages: changed };
    },
  };
}

/** The reference that replaces a long tool result (or one with media, described in `media`) in what the model is sent. */
export function toolResultReference(toolName: string, callId: string, chars: number, readToolName: string = readToolResultName, media: readonly string[] = []): string {
  return `[result of ${toolName} #${callId}: ${[`${chars} chars`, ...media].join(", ")}; call ${readToolName} to read it]`;
}

function prunedMessage(message: ChatMessage, maxChars: number, readName: string): ChatMessage {
  const result = message.toolCallResult;
  if (result === undefined || message.content.length !== 1 || result.origin.id === undefined || (result.parts === undefined && result.result.length <= maxChars)) return message;
  const media = (result.parts ?? []).flatMap((p) => (p.type === "text" ? [] : [describeMedia(p.type === "image" ? p.image : p.file)]));
  const reference = toolResultReference(result.origin.toolName, result.origin.id, result.result.length, readName, media);
  return ChatMessage.fromTool(reference, result.origin, { error: result.error, meta: { ...message.meta }, ...(message.name === undefined ? {} : { name: message.name }) });
}
