import OpenAI from "openai";
import { ConfigurationError } from "../../errors";
import { describeKind } from "../../util/describeValue";
import type { ChatGenerator, ChatGeneratorRequest, ChatGeneratorResponse } from "../chatGenerator";
import { CallLimits, type CallLimitsOptions } from "./callLimits";
import { fromCompletion } from "./fromCompletion";
import { toOpenAIMessages, toOpenAITools } from "./openaiConverter";
import { collectStream } from "./openaiStream";
import { type RetryOptions, sendWithRetries } from "./retryPolicy";
import { type ProviderCall, toChatGeneratorError } from "./toChatGeneratorError";

/** Options of `new OpenAIChatGenerator(...)`. */
export interface OpenAIChatGeneratorOptions {
  /** The model, e.g. `gpt-4o-mini`, or the name an OpenAI-compatible server knows. */
  model: string;
  /** Default: `OPENAI_API_KEY`. Not needed for a local server given by `baseURL`/`OPENAI_BASE_URL`. */
  apiKey?: string;
  /** An OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, Azure, …). Default: `OPENAI_BASE_URL`, else OpenAI. */
  baseURL?: string;
  /** The `OpenAI-Organization` header. */
  organization?: string;
  /** Options for every request (temperature, max_tokens, parallel_tool_calls, …); per-run ones win. */
  generationKwargs?: Record<string, unknown>;
  /** How long one attempt waits for the response headers, in ms (the SDK's option; its default is 600000). */
  timeout?: number;
  /**
   * How often a failed request is retried: connection errors and timeouts, and statuses 408, 409,
   * 429 and 5xx, unless the server's `x-should-retry` header says otherwise (the SDK's rules; a
   * stream is never retried once it has started). Default: the given client's `maxRetries`, else 2.
   */
  maxRetries?: number;
  /**
   * The longest wait before a retry, in ms. The server's `retry-after-ms` or `retry-after` is
   * honoured up to this, else the wait backs off from 0.5 s to 8 s. Default 60000: a rate limit's
   * retry-after is rarely longer than its one-minute window, and a `retry-after: 3600` (from a
   * proxy or a hostile server) must not park an agent for an hour.
   */
  maxRetryDelayMs?: number;
  /**
   * The whole call's limit, in ms: every attempt, every wait before a retry, the response body or
   * the entire stream, and the streaming callback. When it passes, the request is aborted and the
   * call rejects with a ChatGeneratorError. Default 600000 (10 minutes, the SDK's own timeout).
   */
  deadlineMs?: number;
  /**
   * The longest silence of a stream, in ms: the wait for each chunk, the first one included (time
   * spent in the streaming callback does not count). When it passes, the request is aborted and
   * the call rejects with a ChatGeneratorError. Default 300000 (5 minutes): reasoning models (o3,
   * gpt-5 at high effort, DeepSeek-R1 behind some servers) can think silently for minutes before
   * their first token, and some servers send an empty first chunk before that silence, so a
   * shorter default would cut off long but healthy thinking; lower it for fast models to notice
   * a stalled stream sooner.
   */
  streamIdleTimeoutMs?: number;
  /** Send strict-compatible tool schemas in strict mode. Default true. */
  toolsStrict?: boolean;
  /** A ready `OpenAI` client; `apiKey`, `baseURL`, `organization` and `timeout` are then ignored. */
  client?: OpenAI;
}

/**
 * A chat model behind the OpenAI Chat Completions API (or any compatible server), using the
 * official `openai` SDK. Streams when the request has a streaming callback. Every failure of the
 * provider (an error status, a body that is not a chat completion, a stream that breaks off, ends
 * unfinished or goes silent, a passed deadline) rejects with a ChatGeneratorError; an abort
 * through the request's signal rejects with an AbortError.
 *
 * @example
 * const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini" });           // OPENAI_API_KEY
 * const local = new OpenAIChatGenerator({ model: "llama3.1", baseURL: "http://localhost:11434/v1" });
 */
export class OpenAIChatGenerator implements ChatGenerator {
  readonly model: string;
  /** `openai`: the API it speaks, whatever server is behind `baseURL`. */
  readonly provider = "openai";
  readonly client: OpenAI;
  readonly #generationKwargs: Readonly<Record<string, unknown>>;
  readonly #toolsStrict: boolean;
  readonly #retry: RetryOptions;
  readonly #limits: CallLimitsOptions;

  constructor(options: OpenAIChatGeneratorOptions) {
    if (typeof options !== "object" || options === null || typeof options.model !== "string" || options.model === "") {
      throw new ConfigurationError("OpenAIChatGenerator", `OpenAIChatGenerator needs a model name, e.g. new OpenAIChatGenerator({ model: "gpt-4o-mini" }), got ${describeKind(options?.model)}.`);
    }
    checkMilliseconds(options, "timeout", 600_000);
    this.model = options.model;
    this.#generationKwargs = { ...(options.generationKwargs ?? {}) };
    this.#toolsStrict = options.toolsStrict ?? true;
    this.#retry = {
      maxRetries: checkRetries(options.maxRetries ?? options.client?.maxRetries ?? 2),
      maxRetryDelayMs: checkMilliseconds(options, "maxRetryDelayMs", 60_000, true),
    };
    this.#limits = { deadlineMs: checkMilliseconds(options, "deadlineMs", 600_000), streamIdleTimeoutMs: checkMilliseconds(options, "streamIdleTimeoutMs", 300_000) };
    this.client = options.client ?? createClient(options);
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const kwargs: Record<string, unknown> = { ...this.#generationKwargs, ...(request.generationKwargs ?? {}) };
    const hasTools = request.tools.length > 0;
    if (!hasTools) {
      // The API refuses these without tools.
      delete kwargs.parallel_tool_calls;
      delete kwargs.tool_choice;
    }
    const body = {
      ...kwargs,
      model: this.model,
      messages: toOpenAIMessages(request.messages),
      ...(hasTools && { tools: toOpenAITools(request.tools, this.#toolsStrict) }),
    };
    const call: ProviderCall = { model: this.model, timeoutMs: this.client.timeout };
    const limits = new CallLimits(this.model, request.signal, this.#limits);
    const completions = this.client.chat.completions;
    try {
      if (request.streamingCallback) {
        const streamingBody = { stream_options: { include_usage: true }, ...body, stream: true } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
        const stream = await this.#send((options) => completions.create(streamingBody, options), limits, call);
        return await collectStream(stream, request.streamingCallback, limits, call);
      }
      const plainBody = { ...body, stream: false } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
      return fromCompletion(await this.#send<unknown>((options) => completions.create(plainBody, options), limits, call), this.model);
    } catch (error) {
      throw limits.errorFor(error);
    } finally {
      limits.settle();
    }
  }

  // The SDK's own retries are off: its waits cannot be cut short by an abort, nor capped.
  async #send<T>(create: (options: AttemptOptions) => PromiseLike<T>, limits: CallLimits, call: ProviderCall): Promise<T> {
    try {
      return await sendWithRetries((signal, retry) => create({ signal, maxRetries: 0, headers: { "x-stainless-retry-count": String(retry) } }), limits, this.#retry);
    } catch (error) {
      throw toChatGeneratorError(error, call, "body");
    }
  }
}

interface AttemptOptions {
  readonly signal: AbortSignal;
  readonly maxRetries: 0;
  readonly headers: Record<string, string>;
}

function createClient(options: OpenAIChatGeneratorOptions): OpenAI {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? (baseURL ? "not-needed" : undefined);
  if (!apiKey) {
    throw new ConfigurationError(
      "OpenAIChatGenerator",
      "OpenAIChatGenerator needs an API key: pass apiKey or set OPENAI_API_KEY; for a local OpenAI-compatible server, pass baseURL (or set OPENAI_BASE_URL) instead.",
    );
  }
  return new OpenAI({
    apiKey,
    ...(baseURL && { baseURL }),
    ...(options.organization && { organization: options.organization }),
    ...(options.timeout !== undefined && { timeout: options.timeout }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
  });
}

// setTimeout fires at once (with a warning) for longer delays.
const longestTimerMs = 2_147_483_647;

function checkMilliseconds(options: OpenAIChatGeneratorOptions, name: "timeout" | "maxRetryDelayMs" | "deadlineMs" | "streamIdleTimeoutMs", example: number, allowZero = false): number {
  const value: unknown = options[name];
  if (value === undefined) return example;
  if (typeof value === "number" && (allowZero ? value >= 0 : value > 0) && value <= longestTimerMs) return value;
  const range = allowZero ? `from 0 to ${longestTimerMs}` : `greater than 0 and at most ${longestTimerMs}`;
  throw new ConfigurationError("OpenAIChatGenerator", `OpenAIChatGenerator needs ${name} to be a number of milliseconds ${range}, e.g. ${name}: ${example}, got ${describeKind(value)}.`);
}

function checkRetries(value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return value;
  throw new ConfigurationError("OpenAIChatGenerator", `OpenAIChatGenerator needs maxRetries to be a whole number from 0 up, e.g. maxRetries: 2, got ${describeKind(value)}.`);
}
