import type { ChatMessage } from "../chat/chatMessage";
import type { ImageContent } from "../media/imageContent";
import { anthropicImageTokens, mediaTokens, openAiImageTokens } from "./mediaTokens";

/** Counts the tokens a message takes in a request; compaction sums it over what it sends. */
export interface TokenCounter {
  /** The tokens `message` takes in a request, its role and framing included. */
  count(message: ChatMessage): number;
}

// ~4 characters a token is OpenAI's rule of thumb for English text; code, JSON and most other
// languages take more tokens per character, so the estimate adds a quarter and rounds up.
const charsPerToken = 4;
const safetyFactor = 1.25;
// Every message costs a few tokens of framing (role, separators): 3–4 in OpenAI's chat format.
const framingTokens = 4;

/** The characters of a message that reach the model: text, reasoning, tool calls (name and JSON arguments), tool results. */
export function messageChars(message: ChatMessage): number {
  let chars = 0;
  for (const part of message.content) {
    if (part.type === "text") chars += part.text.length;
    else if (part.type === "reasoning") chars += part.reasoning.text.length;
    else if (part.type === "toolCall") chars += callChars(part.toolCall);
    else if (part.type === "toolCallResult") chars += part.toolCallResult.result.length + (part.toolCallResult.origin.id?.length ?? 0);
  }
  return chars;
}

function callChars(call: ChatMessage["toolCalls"][number]): number {
  const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
  return call.toolName.length + args.length + (call.id?.length ?? 0);
}

/**
 * A tokenizer-free estimate for every vendor: `ceil(chars / 4 × 1.25) + 4` per message (chars/4 is
 * the English rule of thumb; the 1.25 covers code and JSON; 4 tokens of framing). It overcounts
 * English and undercounts scripts that take a token or more per character (Chinese, Japanese):
 * give those a real tokenizer as your `TokenCounter`. An image counts as the larger of OpenAI's and
 * Anthropic's documented figures for its pixel size (read from its PNG, GIF or JPEG header; 1,600
 * when unknown), a file as its bytes would as text. Counts are cached per message (messages are
 * immutable), so counting a growing conversation costs only its new messages.
 */
export const estimateTokenCounter: TokenCounter = cachedCounter((message) => Math.ceil((messageChars(message) / charsPerToken) * safetyFactor) + framingTokens + mediaTokens(message, largerImageTokens));

function largerImageTokens(image: ImageContent): number {
  return Math.max(openAiImageTokens(image), anthropicImageTokens(image));
}

/** A counter that remembers each message's count (messages are immutable, so a count never changes). */
export function cachedCounter(count: (message: ChatMessage) => number): TokenCounter {
  const counts = new WeakMap<ChatMessage, number>();
  return {
    count(message) {
      let tokens = counts.get(message);
      if (tokens === undefined) counts.set(message, (tokens = count(message)));
      return tokens;
    },
  };
}

/** The tokens of a list of messages by `counter`. */
export function countTokens(messages: readonly ChatMessage[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) total += counter.count(message);
  return total;
}
