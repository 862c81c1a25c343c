import type OpenAI from "openai";
import type { ChatGenerator, ChatGeneratorDefinition, ChatGeneratorRequest, ChatGeneratorResponse } from "../chatGenerator";
import { chatDefinitionOptions, toDefinitionOptions } from "./definitionOptions";
import { fromCompletion } from "./fromCompletion";
import type { OpenAIClient } from "./openaiClient";
import { OpenAIConnection, type OpenAIConnectionOptions } from "./openaiConnection";
import { toOpenAIMessages, toOpenAITools, toResponseFormat } from "./openaiConverter";
import { collectStream } from "./openaiStream";
import { MediaWarnings } from "../../media/describeMedia";
import { withWarnings } from "../withWarnings";

/** Options of `new OpenAIChatGenerator(...)`. */
export interface OpenAIChatGeneratorOptions extends OpenAIConnectionOptions {
  /**
   * Options for every request (temperature, max_tokens, parallel_tool_calls, …); per-run ones win.
   * A run with an `outputSchema` sends its own `response_format`, which replaces one given here.
   */
  generationKwargs?: Record<string, unknown>;
}

/**
 * A chat model behind the OpenAI Chat Completions API (or any compatible server), using the
 * official `openai` SDK. Streams when the request has a streaming callback. A request's
 * `responseFormat` (a run's `outputSchema`) is sent as `response_format: { type: "json_schema" }`.
 * Every failure of the provider (an error status, a body that is not a chat completion, a stream
 * that breaks off, ends unfinished or goes silent, a passed deadline) rejects with a
 * ChatGeneratorError; an abort through the request's signal rejects with an AbortError.
 *
 * @example
 * const chatGenerator = new OpenAIChatGenerator({ model: "gpt-4o-mini" });           // OPENAI_API_KEY
 * const local = new OpenAIChatGenerator({ model: "llama3.1", baseURL: "http://localhost:11434/v1" });
 * const named = new OpenAIChatGenerator({ model: "gpt-4o-mini", apiKeyEnv: "SUPPORT_OPENAI_KEY" }); // has a data form
 */
export class OpenAIChatGenerator implements ChatGenerator {
  readonly model: string;
  /** `openai`: the API it speaks, whatever server is behind `baseURL`. */
  readonly provider = "openai";
  /** The client requests go through: the one given as `client`, else one built from the connection options. */
  readonly client: OpenAIClient;
  readonly #connection: OpenAIConnection;

  constructor(options: OpenAIChatGeneratorOptions) {
    this.#connection = new OpenAIConnection("OpenAIChatGenerator", options, "gpt-4o-mini");
    this.model = this.#connection.model;
    this.client = this.#connection.client;
  }

  /** The client's base URL: the server traces name as `server.address` and `server.port`. */
  get serverUrl(): string {
    return this.client.baseURL;
  }

  /**
   * This generator as data: `{ type: "OpenAIChatGenerator", options: { model, apiKey: { env }, … } }`
   * with the model, the key's environment variable (`apiKeyEnv`, else `OPENAI_API_KEY`) and every
   * other option that was given, in a fixed order; options left out (`OPENAI_BASE_URL` included)
   * are read again where the definition is loaded. `openaiChatGeneratorFromDefinition` reverses
   * it. Throws DefinitionError when the key was given as `apiKey` or a `client` was given.
   */
  toJSON(): ChatGeneratorDefinition {
    return { type: "OpenAIChatGenerator", options: toDefinitionOptions("OpenAIChatGenerator", this.#connection.given, chatDefinitionOptions) };
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const connection = this.#connection;
    const kwargs: Record<string, unknown> = { ...connection.generationKwargs, ...(request.generationKwargs ?? {}) };
    const hasTools = request.tools.length > 0;
    if (!hasTools) {
      // The API refuses these without tools.
      delete kwargs.parallel_tool_calls;
      delete kwargs.tool_choice;
    }
    const described = new MediaWarnings("OpenAIChatGenerator");
    const body = {
      ...kwargs,
      model: this.model,
      messages: toOpenAIMessages(request.messages, described),
      ...(hasTools && { tools: toOpenAITools(request.tools, connection.toolsStrict) }),
      ...(request.responseFormat && { response_format: toResponseFormat(request.responseFormat) }),
    };
    const completions = this.client.chat.completions;
    const response = await connection.call(request.signal, async ({ send, scope, provider }) => {
      if (request.streamingCallback) {
        const streamingBody = { stream_options: { include_usage: true }, ...body, stream: true } as OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
        const stream = await send((options) => completions.create(streamingBody, options));
        return collectStream(stream, request.streamingCallback, scope, provider);
      }
      const plainBody = { ...body, stream: false } as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
      return fromCompletion(await send<unknown>((options) => completions.create(plainBody, options)), this.model);
    });
    return withWarnings(response, described.warnings);
  }
}
