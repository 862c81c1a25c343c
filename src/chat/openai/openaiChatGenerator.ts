import OpenAI from "openai";
import { AbortError, ChatGeneratorError, ConfigurationError } from "../../errors";
import { describeKind } from "../../util/describeValue";
import type { ChatGenerator, ChatGeneratorRequest, ChatGeneratorResponse } from "../chatGenerator";
import { assistantReply, toOpenAIMessages, toOpenAITools, toUsage } from "./openaiConverter";
import { collectStream } from "./openaiStream";

/** Options of `new OpenAIChatGenerator(...)`. */
export interface OpenAIChatGeneratorOptions {
  /** The model, e.g. `gpt-4o-mini`, or the name an OpenAI-compatible server knows. */
  model: string;
  /** Default: `OPENAI_API_KEY`. Not needed for a local server given by `baseURL`/`OPENAI_BASE_URL`. */
  apiKey?: string;
  /** An OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, Azure, …). Default: `OPENAI_BASE_URL`, else OpenAI. */
  baseURL?: string;
  organization?: string;
  /** Options for every request (temperature, max_tokens, parallel_tool_calls, …); per-run ones win. */
  generationKwargs?: Record<string, unknown>;
  /** Request timeout in ms (the SDK's default when left out). */
  timeout?: number;
  /** How often the SDK retries 429 and 5xx responses before the error surfaces. Default 2. */
  maxRetries?: number;
  /** Send strict-compatible tool schemas in strict mode. Default true. */
  toolsStrict?: boolean;
  /** A ready `OpenAI` client; the connection options above are then ignored. */
  client?: OpenAI;
}

/**
 * A chat model behind the OpenAI Chat Completions API (or any compatible server), using the
 * official `openai` SDK. Streams when the request has a streaming callback.
 *
 * @example
 * const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini" });           // OPENAI_API_KEY
 * const local = new OpenAIChatGenerator({ model: "llama3.1", baseURL: "http://localhost:11434/v1" });
 */
export class OpenAIChatGenerator implements ChatGenerator {
  readonly model: string;
  readonly client: OpenAI;
  readonly #generationKwargs: Readonly<Record<string, unknown>>;
  readonly #toolsStrict: boolean;

  constructor(options: OpenAIChatGeneratorOptions) {
    if (typeof options !== "object" || options === null || typeof options.model !== "string" || options.model === "") {
      throw new ConfigurationError("OpenAIChatGenerator", `OpenAIChatGenerator needs a model name, e.g. new OpenAIChatGenerator({ model: "gpt-4o-mini" }), got ${describeKind(options?.model)}.`);
    }
    this.model = options.model;
    this.#generationKwargs = { ...(options.generationKwargs ?? {}) };
    this.#toolsStrict = options.toolsStrict ?? true;
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
    const options = request.signal ? { signal: request.signal } : undefined;
    try {
      if (request.streamingCallback) {
        const stream = await this.client.chat.completions.create(
          { stream_options: { include_usage: true }, ...body, stream: true } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming,
          options,
        );
        return await collectStream(stream, request.streamingCallback, request.signal);
      }
      const completion = await this.client.chat.completions.create({ ...body, stream: false } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, options);
      return fromCompletion(completion);
    } catch (error) {
      throw toGeneratorError(error, this.model);
    }
  }
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

function fromCompletion(completion: OpenAI.Chat.Completions.ChatCompletion): ChatGeneratorResponse {
  const usage = toUsage(completion.usage);
  const choices = [...(completion.choices ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const replies = choices.map((choice) =>
    assistantReply(
      {
        content: choice.message?.content ?? null,
        refusal: choice.message?.refusal ?? null,
        // Some compatible servers leave out `type`; any call with a function part is kept.
        toolCalls: (choice.message?.tool_calls ?? []).flatMap((call) => {
          const fn = (call as { function?: { name?: string; arguments?: string } }).function;
          return fn ? [{ id: call.id, name: fn.name ?? "", arguments: fn.arguments ?? "" }] : [];
        }),
      },
      { model: completion.model, index: choice.index ?? 0, finishReason: choice.finish_reason ?? undefined, usage: choice.index === 0 ? usage : undefined },
    ),
  );
  return { replies, meta: { model: completion.model, usage, finishReason: choices[0]?.finish_reason ?? undefined } };
}

function toGeneratorError(error: unknown, model: string): Error {
  if (error instanceof OpenAI.APIUserAbortError) return new AbortError("The model request was aborted.", { cause: error });
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const providerMessage = providerMessageOf(error);
    return new ChatGeneratorError(`OpenAI request for model '${model}' failed with status ${error.status}: ${providerMessage}`, { cause: error, status: error.status, providerMessage });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const detail = error.message.replace(/\.$/, "");
    return new ChatGeneratorError(`OpenAI request for model '${model}' could not connect: ${detail}. Check baseURL / OPENAI_BASE_URL and the network.`, { cause: error });
  }
  if (error instanceof OpenAI.APIError) {
    // An error event inside a stream: the provider's error, without an HTTP status.
    const providerMessage = providerMessageOf(error);
    return new ChatGeneratorError(`OpenAI request for model '${model}' failed: ${providerMessage}`, { cause: error, providerMessage });
  }
  return error instanceof Error ? error : new ChatGeneratorError(`OpenAI request for model '${model}' failed: ${String(error)}`, { cause: error });
}

function providerMessageOf(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string") return body.message;
  return error.message.replace(/^\d{3}\s*/, "") || "no message";
}
