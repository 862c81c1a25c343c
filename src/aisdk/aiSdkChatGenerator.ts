import type { AbortScope } from "../util/abortScope";
import type { ChatGenerator, ChatGeneratorRequest, ChatGeneratorResponse } from "../chat/chatGenerator";
import { readModelCallOptions } from "../chat/generatorOptionChecks";
import { closeModelCallScope, type ModelCallLimits, openModelCallScope } from "../chat/modelCallScope";
import { type RetryPolicy, retryModelCall } from "../chat/retryModelCall";
import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { type ModelCall, providerFault, toChatGeneratorError } from "./toChatGeneratorError";
import { checkModel, checkToolsStrict, readGenerationKwargs } from "./aiSdkOptions";
import { collectAiSdkStream } from "./collectAiSdkStream";
import { fromGenerateResult } from "./fromGenerateResult";
import type { AISdkCallOptions, AISdkGenerationKwargs, AISdkLanguageModel } from "./languageModel";
import { genAiProviderName } from "./providerName";
import { isRetryable, retryAfterMsOf } from "./retryPolicy";
import { type AISdkPromptMedia, responseFormatProviderOptions, toAiSdkPrompt, toAiSdkResponseFormat, toAiSdkTools } from "./toAiSdkPrompt";
import { readSupportedUrls } from "./aiSdkMediaSupport";
import { MediaWarnings } from "../media/describeMedia";
import { withWarnings } from "../chat/withWarnings";
import type { ChatMessage } from "../chat/chatMessage";

/** Options of `new AISdkChatGenerator(...)`. */
export interface AISdkChatGeneratorOptions {
  /** The model: `anthropic("claude-sonnet-4-5")`, `google("gemini-2.5-flash")`, an `@ai-sdk/openai-compatible` model, … */
  model: AISdkLanguageModel;
  /**
   * Call settings for every request, under the specification's names: `maxOutputTokens`,
   * `temperature`, `topP`, `topK`, `stopSequences`, `presencePenalty`, `frequencyPenalty`, `seed`,
   * `providerOptions`, `headers` (and `reasoning` for V4 models). Per-run ones win, key by key.
   */
  generationKwargs?: AISdkGenerationKwargs;
  /**
   * How often a failed call is retried: the failures the provider marks retryable (connection
   * errors, 408, 409, 429, 5xx); a stream is never retried once it has started. Default 2.
   */
  maxRetries?: number;
  /** The longest wait before a retry, in ms; the provider's `retry-after-ms` or `retry-after` is honoured up to this, else the wait backs off from 0.5 s to 8 s. Default 60000. */
  maxRetryDelayMs?: number;
  /**
   * The whole call's limit, in ms: every attempt, every wait before a retry, the entire stream and
   * the streaming callback. When it passes, the call is aborted and rejects with a
   * ChatGeneratorError. Default 600000.
   */
  deadlineMs?: number;
  /** The longest silence of a stream, in ms, the wait for its first part included; then the call is aborted and rejects with a ChatGeneratorError. Default 300000. */
  streamIdleTimeoutMs?: number;
  /** Send strict-compatible tool schemas in strict form with `strict: true` (providers without strict mode ignore it). Default true. */
  toolsStrict?: boolean;
}

/**
 * A chat model of any Vercel AI SDK provider package (`@ai-sdk/anthropic`, `@ai-sdk/google`,
 * `@ai-sdk/openai-compatible`, …), called through its LanguageModel (specification v3 or v4)
 * without the `ai` package. Streams when the request has a streaming callback. Every failure of
 * the provider (an error status after the retries, a malformed result or stream, a passed time
 * limit) rejects with a ChatGeneratorError; an abort through the request's signal rejects with an
 * AbortError.
 *
 * @example
 * import { anthropic } from "@ai-sdk/anthropic";
 * const chatGenerator = new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5"), generationKwargs: { maxOutputTokens: 1024 } });
 */
export class AISdkChatGenerator implements ChatGenerator {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  readonly model: string;
  /** The provider as OpenTelemetry's `gen_ai.provider.name` names it: `anthropic`, `openai`, `gcp.gemini`, … */
  readonly provider: string;
  /** The LanguageModel it calls. */
  readonly languageModel: AISdkLanguageModel;
  readonly #generationKwargs: AISdkGenerationKwargs;
  readonly #toolsStrict: boolean;
  readonly #retry: RetryPolicy;
  readonly #limits: ModelCallLimits;
  readonly #call: ModelCall;

  constructor(options: AISdkChatGeneratorOptions) {
    if (typeof options !== "object" || options === null) {
      throw new ConfigurationError("AISdkChatGenerator", `AISdkChatGenerator needs an options object with a model, e.g. new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5") }), got ${describeKind(options)}.`);
    }
    this.languageModel = checkModel(options.model);
    this.model = this.languageModel.modelId;
    this.provider = genAiProviderName(this.languageModel.provider);
    this.#call = { modelId: this.model, providerId: this.languageModel.provider };
    this.#generationKwargs = readGenerationKwargs(options.generationKwargs, this.languageModel, "generationKwargs");
    this.#toolsStrict = checkToolsStrict(options.toolsStrict);
    const owner = { subject: "AISdkChatGenerator" };
    ({ retry: this.#retry, limits: this.#limits } = readModelCallOptions(options, owner, { isRetryable, retryAfterMs: retryAfterMsOf }));
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const call = this.#call;
    const model = this.languageModel;
    const media = { warnings: new MediaWarnings("AISdkChatGenerator"), supportedUrls: {} as Record<string, RegExp[]> };
    const scope = openModelCallScope(request.signal, this.#limits, (detail) => providerFault(call, detail));
    let completed = false;
    try {
      if (hasUrlMedia(request.messages)) media.supportedUrls = await this.#supportedUrls(scope);
      const callOptions = this.#callOptions(request, media);
      const callback = request.streamingCallback;
      const response = callback
        ? await collectAiSdkStream(await this.#send((abortSignal) => model.doStream({ ...callOptions, abortSignal }), scope), callback, scope, call)
        : fromGenerateResult(await this.#send((abortSignal) => model.doGenerate({ ...callOptions, abortSignal }), scope), call);
      // The result was read to its end (a stream to its last part): no request is left in flight.
      completed = true;
      return withWarnings(response, media.warnings.warnings);
    } catch (error) {
      throw scope.aborted ? scope.reason : error;
    } finally {
      closeModelCallScope(scope, completed);
    }
  }

  // The model's supportedUrls (a getter, a value or a promise from the provider): bounded by the call's limits; unreadable means none.
  async #supportedUrls(scope: AbortScope): Promise<Record<string, RegExp[]>> {
    let value: unknown;
    try {
      value = this.languageModel.supportedUrls;
      if (typeof (value as PromiseLike<unknown> | undefined)?.then === "function") value = await scope.race(value as PromiseLike<unknown>);
    } catch (error) {
      if (scope.aborted) throw error;
      return {};
    }
    return readSupportedUrls(value);
  }

  #callOptions(request: ChatGeneratorRequest, media: AISdkPromptMedia): Omit<AISdkCallOptions, "abortSignal"> {
    const perRun = readGenerationKwargs(request.generationKwargs, this.languageModel, "the run's generationKwargs");
    const hasTools = request.tools.length > 0;
    const settings = { ...this.#generationKwargs, ...perRun };
    return {
      ...settings,
      prompt: toAiSdkPrompt(request.messages, this.languageModel.provider, media),
      ...(hasTools && { tools: toAiSdkTools(request.tools, this.#toolsStrict, this.languageModel.provider), toolChoice: { type: "auto" as const } }),
      ...(request.responseFormat && { responseFormat: toAiSdkResponseFormat(request.responseFormat), providerOptions: responseFormatProviderOptions(settings.providerOptions, request.responseFormat) }),
    };
  }

  async #send(send: (abortSignal: AbortSignal) => PromiseLike<unknown>, scope: AbortScope): Promise<unknown> {
    try {
      return await retryModelCall(send, scope, this.#retry);
    } catch (error) {
      throw scope.aborted ? error : toChatGeneratorError(error, this.#call, "thrown");
    }
  }
}

// Whether any image or file of the conversation is a URL reference (only then is supportedUrls read).
function hasUrlMedia(messages: readonly ChatMessage[]): boolean {
  return messages.some((message) => message.images.some((image) => image.url !== undefined) || message.files.some((file) => file.url !== undefined));
}
