import type { ChatGeneratorResponse, TokenUsage } from "../chat/chatGenerator";
import type { ChatMessage } from "../chat/chatMessage";

/**
 * What a run used, summed over its model and tool calls — across a pause and resume too, since a
 * snapshot carries the totals so far.
 */
export interface RunUsage {
  /** Prompt tokens the provider reported, summed over the model calls. */
  readonly inputTokens: number;
  /** Completion tokens the provider reported, summed over the model calls. */
  readonly outputTokens: number;
  /** Each call's reported total (else its input + output), summed. */
  readonly totalTokens: number;
  /** Model calls that answered. */
  readonly modelCalls: number;
  /** Tool calls the model asked for, whatever their outcome. */
  readonly toolCalls: number;
  /** Tool calls whose tool message is an error (invalid arguments, unknown tool, a throw, a rejection). */
  readonly failedToolCalls: number;
  /**
   * `toolCalls` by the tool name the model asked for (an unknown name too, cut to 64
   * characters and "…"), whatever their outcome: Haystack's `tool_call_counts`, except that a tool not called yet has no entry (read
   * `toolCallsByName[name] ?? 0`).
   */
  readonly toolCallsByName: Readonly<Record<string, number>>;
}

/** A run's usage before its first call. */
export const noUsage: RunUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, toolCalls: 0, failedToolCalls: 0, toolCallsByName: Object.freeze({}) });

/** The counts of one model call, as far as the provider reported them in a usable form. */
export interface CallTokens {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
}

/**
 * The token counts of a model call: the response's `meta.usage`, else the sum of its replies'
 * `meta.usage`. A generator's answer is not trusted: a count that is not a whole number ≥ 0 (a
 * string, -1, 1e300, NaN) is left out rather than summed.
 */
export function callTokens(response: ChatGeneratorResponse | undefined, replies: readonly ChatMessage[]): CallTokens | undefined {
  const reported = readTokens(response?.meta?.usage);
  if (reported) return reported;
  let sum: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined;
  for (const reply of replies) {
    const tokens = readTokens(reply.meta.usage as TokenUsage | undefined);
    if (!tokens) continue;
    sum ??= {};
    for (const key of ["inputTokens", "outputTokens", "totalTokens"] as const) {
      if (tokens[key] !== undefined) sum[key] = addCounts(sum[key] ?? 0, tokens[key]);
    }
  }
  return sum;
}

// Haystack's generators (and OpenAI's wire format) write snake_case usage into a reply's meta
// (`prompt_tokens`, `completion_tokens`, `total_tokens`; Anthropic's `input_tokens`,
// `output_tokens`); toolwright's write camelCase. The first present name counts.
function readTokens(usage: unknown): CallTokens | undefined {
  if (typeof usage !== "object" || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  const promptTokens = firstCount(record, "promptTokens", "prompt_tokens", "input_tokens");
  const completionTokens = firstCount(record, "completionTokens", "completion_tokens", "output_tokens");
  const totalTokens = firstCount(record, "totalTokens", "total_tokens");
  const tokens: { inputTokens?: number; outputTokens?: number; totalTokens?: number } = {};
  if (isCount(promptTokens)) tokens.inputTokens = promptTokens;
  if (isCount(completionTokens)) tokens.outputTokens = completionTokens;
  if (isCount(totalTokens)) tokens.totalTokens = totalTokens;
  return Object.keys(tokens).length > 0 ? tokens : undefined;
}

function firstCount(record: Record<string, unknown>, ...names: string[]): unknown {
  for (const name of names) if (Object.hasOwn(record, name) && record[name] !== undefined) return record[name];
  return undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** Adds two counts, stopping at `Number.MAX_SAFE_INTEGER` so totals stay whole numbers a snapshot accepts. */
export function addCounts(a: number, b: number): number {
  return Math.min(a + b, Number.MAX_SAFE_INTEGER);
}

// Tool names are 1–64 characters (Tool's rule, and the providers').
const maxToolNameLength = 64;

/** A run's usage as it grows; `toJSON` gives the frozen totals. */
export class UsageTally {
  #inputTokens: number;
  #outputTokens: number;
  #totalTokens: number;
  #modelCalls: number;
  #toolCalls: number;
  #failedToolCalls: number;
  readonly #toolCallsByName = new Map<string, number>();

  constructor(from: RunUsage = noUsage) {
    this.#inputTokens = from.inputTokens;
    this.#outputTokens = from.outputTokens;
    this.#totalTokens = from.totalTokens;
    this.#modelCalls = from.modelCalls;
    this.#toolCalls = from.toolCalls;
    this.#failedToolCalls = from.failedToolCalls;
    for (const [name, calls] of Object.entries(from.toolCallsByName)) this.#toolCallsByName.set(name, calls);
  }

  addModelCall(tokens: CallTokens | undefined): void {
    this.#modelCalls = addCounts(this.#modelCalls, 1);
    if (!tokens) return;
    const input = tokens.inputTokens ?? 0;
    const output = tokens.outputTokens ?? 0;
    this.#inputTokens = addCounts(this.#inputTokens, input);
    this.#outputTokens = addCounts(this.#outputTokens, output);
    this.#totalTokens = addCounts(this.#totalTokens, tokens.totalTokens ?? addCounts(input, output));
  }

  /** Adds a sub-run's tokens (an agent tool's): its model and tool calls stay its own. */
  addTokens(usage: RunUsage): void {
    this.#inputTokens = addCounts(this.#inputTokens, usage.inputTokens);
    this.#outputTokens = addCounts(this.#outputTokens, usage.outputTokens);
    this.#totalTokens = addCounts(this.#totalTokens, usage.totalTokens);
  }

  /** Counts tool calls the model asked for, by the names it asked for, `failed` of them answered with an error. */
  addToolCalls(names: readonly string[], failed: number): void {
    this.#toolCalls = addCounts(this.#toolCalls, names.length);
    this.#failedToolCalls = addCounts(this.#failedToolCalls, failed);
    for (const name of names) {
      // The name is the model's: one longer than any tool name can be (an unknown tool) is cut, so usage stays small.
      const key = name.length > maxToolNameLength ? `${name.slice(0, maxToolNameLength)}…` : name;
      this.#toolCallsByName.set(key, addCounts(this.#toolCallsByName.get(key) ?? 0, 1));
    }
  }

  toJSON(): RunUsage {
    return Object.freeze({
      inputTokens: this.#inputTokens,
      outputTokens: this.#outputTokens,
      totalTokens: this.#totalTokens,
      modelCalls: this.#modelCalls,
      toolCalls: this.#toolCalls,
      failedToolCalls: this.#failedToolCalls,
      toolCallsByName: Object.freeze(Object.fromEntries(this.#toolCallsByName)),
    });
  }
}
