import type { ChatGenerator } from "../chat/chatGenerator";
import { ChatMessage } from "../chat/chatMessage";
import { ChatGeneratorError, ConfigurationError, StateKeyError } from "../errors";
import type { BeforeModelContext, Middleware } from "../run/middleware";
import type { StateKeySchema } from "../state/stateSchema";
import { describeKind } from "../util/describeValue";
import { zod } from "../util/lazyZod";
import { checkCount, checkCounter } from "./checkMaxTokens";
import { ConversationTokens } from "./conversationTokens";
import { newestGroups } from "./messageGroups";
import { transcriptText } from "./transcriptText";
import { countTokens, estimateTokenCounter, type TokenCounter } from "./tokenCounter";

/** What `summarize` keeps in its state key: the summary, and how many messages of the conversation it stands for. */
export interface ConversationSummary {
  /** The conversation's first `covered` messages (system messages aside) are replaced by the summary. */
  readonly covered: number;
  readonly text: string;
}

/** Options of `summarize`. */
export interface SummarizeOptions {
  /** The model that writes the summaries (a small, cheap one does). */
  readonly chatGenerator: ChatGenerator;
  /** The most tokens a model call may send. */
  readonly maxTokens: number;
  /** How many of the newest messages are always sent as they are (widened to whole tool calls); default 6. */
  readonly keepLast?: number;
  /** The state key the summary is kept in (declare it with `summaryStateKey()`); default `"conversation_summary"`. */
  readonly stateKey?: string;
  /** The most tokens the summary may take; default a quarter of maxTokens. */
  readonly summaryTokens?: number;
  /** How messages are counted when the provider's usage does not say; default `estimateTokenCounter`. */
  readonly counter?: TokenCounter;
  /** What the summarizing model is told; default asks for the facts, decisions, open tasks and ids a continuation needs. */
  readonly instructions?: string;
  /** The middleware's name; default `"summarize"`. */
  readonly name?: string;
}

const defaultInstructions =
  "Summarize the conversation below for the assistant that continues it. Keep every fact, decision, open task, name, id and number it may need; drop pleasantries. Write plain text.";

/** The state key `summarize` keeps its summary in: add it to the Agent's stateSchema (`{ conversation_summary: summaryStateKey() }`). */
export function summaryStateKey(): StateKeySchema {
  const z = zod();
  return { type: z.object({ covered: z.number().int().min(0), text: z.string() }) };
}

/**
 * A middleware that, once the conversation outgrows `maxTokens`, sends the system messages, one
 * summary of the older messages (a user message, written by `chatGenerator`) and the newest
 * messages. The summary is kept in a state key and reused until the conversation outgrows it
 * again; then the summary and the messages since are summarized anew. `state.messages` keeps every
 * original message; tool calls stay with their results.
 */
export function summarize(options: SummarizeOptions): Middleware {
  const subject = "summarize";
  if (typeof options?.chatGenerator?.run !== "function") {
    throw new ConfigurationError(subject, `summarize needs chatGenerator as a ChatGenerator (an object with a run method), got ${describeKind(options?.chatGenerator)}.`, { optionPath: ["chatGenerator"] });
  }
  const maxTokens = checkCount(subject, "maxTokens", options.maxTokens, 1);
  const keepLast = checkCount(subject, "keepLast", options.keepLast ?? 6, 1);
  const summaryTokens = checkCount(subject, "summaryTokens", options.summaryTokens ?? Math.max(1, Math.floor(maxTokens / 4)), 1);
  const counter = checkCounter(subject, options.counter) ?? estimateTokenCounter;
  const stateKey = options.stateKey ?? "conversation_summary";
  const instructions = options.instructions ?? defaultInstructions;
  const tokens = new ConversationTokens(counter);
  const name = options.name ?? "summarize";
  return {
    name,
    async beforeModel(context) {
      if (tokens.count(context) <= maxTokens) {
        tokens.sentUnchanged(context);
        return undefined;
      }
      tokens.sentChanged(context);
      const system = context.messages.filter((m) => m.role === "system");
      const rest = context.messages.filter((m) => m.role !== "system");
      let summary = context.state.get(stateKey) as ConversationSummary | undefined;
      if (summary && summary.covered <= rest.length) {
        const sent = withSummary(system, summary.text, rest.slice(summary.covered));
        if (countTokens(sent, counter) <= maxTokens) return { messages: sent };
      }
      const budget = maxTokens - countTokens(system, counter) - summaryTokens;
      const kept = newestKept(rest, { keepLast, budget, counter });
      if (kept.length === 0) {
        return {
          stop: {
            reason: `summarize: the newest message (with its tool results) does not fit beside the system messages and a summary of ${summaryTokens} tokens in maxTokens ${maxTokens}; raise maxTokens, or prune tool results before summarizing.`,
            details: { maxTokens, summaryTokens, newestTokens: countTokens(newestGroups(rest, () => false).at(-1) ?? [], counter) },
          },
        };
      }
      const covered = rest.length - kept.length;
      if (covered === 0) return { messages: [...system, ...kept] };
      if (summary && summary.covered === covered) return { messages: withSummary(system, summary.text, kept) };
      const from = summary && summary.covered <= covered ? summary.covered : 0;
      const text = await summaryText(context, {
        chatGenerator: options.chatGenerator,
        instructions,
        previous: from > 0 ? summary!.text : undefined,
        messages: rest.slice(from, covered),
        name,
      });
      summary = { covered, text: fitText(text, summaryTokens, counter) };
      keepSummary(context, stateKey, summary);
      return { messages: withSummary(system, summary.text, kept) };
    },
  };
}

function keepSummary(context: BeforeModelContext, stateKey: string, summary: ConversationSummary): void {
  try {
    context.state.set(stateKey, summary);
  } catch (error) {
    if (!(error instanceof StateKeyError)) throw error;
    throw new ConfigurationError(
      "summarize",
      `summarize keeps its summary in state key '${stateKey}', which the Agent's stateSchema lacks; add { ${stateKey}: summaryStateKey() } to stateSchema, or name a declared key with stateKey.`,
      { cause: error, optionPath: ["stateKey"] },
    );
  }
}

function withSummary(system: readonly ChatMessage[], text: string, kept: readonly ChatMessage[]): ChatMessage[] {
  return [...system, summaryMessage(text), ...kept];
}

function summaryMessage(text: string): ChatMessage {
  return ChatMessage.fromUser(`[Summary of the earlier conversation]\n${text}`);
}

/** The newest whole groups: at least `keepLast` messages when they fit in `budget`, and never more than fit. */
function newestKept(rest: readonly ChatMessage[], options: { keepLast: number; budget: number; counter: TokenCounter }): ChatMessage[] {
  let count = 0;
  let used = 0;
  const groups = newestGroups(rest, (group) => {
    const groupTokens = countTokens(group, options.counter);
    if (count >= options.keepLast || used + groupTokens > options.budget) return true;
    count += group.length;
    used += groupTokens;
    return false;
  });
  return groups.flat();
}

async function summaryText(
  context: BeforeModelContext,
  options: { chatGenerator: ChatGenerator; instructions: string; previous: string | undefined; messages: readonly ChatMessage[]; name: string },
): Promise<string> {
  const transcript = (options.previous === undefined ? "" : `Summary so far:\n${options.previous}\n\nThe conversation since:\n`) + transcriptText(options.messages);
  // Through the run: the summary's tokens count in the run's usage (and its budget), and the call is observed.
  const response = await context.callModel(options.chatGenerator, { messages: [ChatMessage.fromSystem(options.instructions), ChatMessage.fromUser(transcript)] });
  const reply: unknown = Array.isArray(response?.replies) ? response.replies[0] : undefined;
  const text = reply instanceof ChatMessage ? reply.text : undefined;
  if (typeof text !== "string" || text.trim() === "") {
    throw new ChatGeneratorError(`The summarizing chat generator of middleware '${options.name}' answered without text (got ${describeKind(reply)}); it must reply with a message holding the summary.`);
  }
  return text;
}

/** Cuts a summary that came out longer than its share of the window, so the request stays under the limit. */
function fitText(text: string, maxTokens: number, counter: TokenCounter): string {
  let fitted = text;
  while (fitted.length > 0 && counter.count(summaryMessage(fitted)) > maxTokens) fitted = fitted.slice(0, Math.floor(fitted.length * 0.8));
  return fitted;
}
