import type { ChatMessage } from "../chat/chatMessage";
import type { BeforeModelAction, BeforeModelContext, Middleware } from "../run/middleware";
import { checkCount, checkCounter } from "./checkMaxTokens";
import { ConversationTokens } from "./conversationTokens";
import { newestGroups } from "./messageGroups";
import { countTokens, estimateTokenCounter, type TokenCounter } from "./tokenCounter";

/** Options of `slidingWindow`. */
export interface SlidingWindowOptions {
  /** The most tokens a model call may send (the messages; leave room for the tools and the answer). */
  readonly maxTokens: number;
  /** How messages are counted when the provider's usage does not say; default `estimateTokenCounter`. */
  readonly counter?: TokenCounter;
  /** Keep the system messages (sent first) whatever else is dropped; default true. */
  readonly keepSystem?: boolean;
  /** The middleware's name; default `"sliding-window"`. */
  readonly name?: string;
}

/**
 * A middleware that sends the model the system messages and the newest messages that fit in
 * `maxTokens`, dropping the oldest; state keeps the whole conversation. An assistant message's tool
 * calls and their results are kept or dropped together, and what is sent never starts with a tool
 * message. When even the newest message (or call with its results) does not fit, the run stops
 * (`exitReason: "stopped"`, `details: { maxTokens, systemTokens, newestTokens }`) with a snapshot.
 */
export function slidingWindow(options: SlidingWindowOptions): Middleware {
  const subject = "slidingWindow";
  const maxTokens = checkCount(subject, "maxTokens", options?.maxTokens, 1);
  const counter = checkCounter(subject, options.counter) ?? estimateTokenCounter;
  const keepSystem = options.keepSystem ?? true;
  const tokens = new ConversationTokens(counter);
  return {
    name: options.name ?? "sliding-window",
    beforeModel(context) {
      if (tokens.count(context) <= maxTokens) {
        tokens.sentUnchanged(context);
        return undefined;
      }
      tokens.sentChanged(context);
      return newestWithin(context, { maxTokens, counter, keepSystem });
    },
  };
}

function newestWithin(context: BeforeModelContext, options: { maxTokens: number; counter: TokenCounter; keepSystem: boolean }): BeforeModelAction {
  const { messages } = context;
  const { maxTokens, counter } = options;
  const system = options.keepSystem ? messages.filter((m) => m.role === "system") : [];
  const systemTokens = countTokens(system, counter);
  let used = systemTokens;
  let newestTokens = 0;
  const groups = newestGroups(messages, (group) => {
    const groupTokens = countTokens(group, counter);
    if (newestTokens === 0) newestTokens = groupTokens;
    if (used + groupTokens > maxTokens) return true;
    used += groupTokens;
    return false;
  });
  if (groups.length === 0) {
    return {
      stop: {
        reason: `slidingWindow: the newest message (with its tool results) and the system messages take ${systemTokens + newestTokens} tokens, over maxTokens ${maxTokens}; raise maxTokens, or prune tool results before the window.`,
        details: { maxTokens, systemTokens, newestTokens },
      },
    };
  }
  const kept: ChatMessage[] = [...system];
  for (const group of groups) kept.push(...group);
  return { messages: kept };
}
