import type { ChatMessage } from "../chat/chatMessage";
import type { BeforeModelContext } from "../run/middleware";
import type { State } from "../state/state";
import { countTokens, type TokenCounter } from "./tokenCounter";

/** What one middleware's run sent unchanged in its last model call, and the run's input-token totals before it. */
interface LastCall {
  // The conversation only grows, so its length and its first and last messages identify what was sent.
  readonly length: number;
  readonly first: ChatMessage | undefined;
  readonly last: ChatMessage | undefined;
  readonly inputTokensBefore: number;
  readonly modelCallsBefore: number;
}

/**
 * Counts the messages a beforeModel hook was given: the provider's count when it is known — the last
 * model call's input tokens, when that call sent a prefix of these messages unchanged — plus the
 * counter's for the messages since; else the counter's for all. One per middleware, keyed by the
 * run's state, so that concurrent runs sharing a middleware do not mix.
 */
export class ConversationTokens {
  readonly #counter: TokenCounter;
  readonly #lastCalls = new WeakMap<State, LastCall>();

  constructor(counter: TokenCounter) {
    this.#counter = counter;
  }

  /** The tokens of `context.messages`, from the provider's usage where it covers them. */
  count(context: BeforeModelContext): number {
    const last = this.#lastCalls.get(context.state);
    const { messages, usage } = context;
    if (last && usage.modelCalls === last.modelCallsBefore + 1 && usage.inputTokens > last.inputTokensBefore && startsWith(messages, last)) {
      return usage.inputTokens - last.inputTokensBefore + countTokens(messages.slice(last.length), this.#counter);
    }
    return countTokens(messages, this.#counter);
  }

  /** Records that this call sends its messages as given, so that the next count can use the provider's figure for them. */
  sentUnchanged(context: BeforeModelContext): void {
    const sent = context.messages;
    this.#lastCalls.set(context.state, { length: sent.length, first: sent[0], last: sent[sent.length - 1], inputTokensBefore: context.usage.inputTokens, modelCallsBefore: context.usage.modelCalls });
  }

  /** Records that this call sends something else: the provider's next figure is not for a prefix of the conversation. */
  sentChanged(context: BeforeModelContext): void {
    this.#lastCalls.delete(context.state);
  }
}

function startsWith(messages: readonly ChatMessage[], sent: LastCall): boolean {
  return sent.length <= messages.length && messages[0] === sent.first && messages[sent.length - 1] === sent.last;
}
