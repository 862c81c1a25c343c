import type OpenAI from "openai";
import { ChatGeneratorError } from "../../errors";
import { describeKind } from "../../util/describeValue";
import type { ChatGenerator, ChatGeneratorDefinition, ChatGeneratorRequest, ChatGeneratorResponse } from "../chatGenerator";
import { responsesDefinitionOptions, toDefinitionOptions } from "./definitionOptions";
import { fromResponse } from "./fromResponse";
import { optionError } from "./optionError";
import type { OpenAIClient, OpenAIRequestOptions } from "./openaiClient";
import { OpenAIConnection, type OpenAIConnectionOptions } from "./openaiConnection";
import { toResponsesInput, toResponsesTools, toTextConfig } from "./responsesConverter";
import { collectResponsesStream } from "./responsesStream";
import { MediaWarnings } from "../../media/describeMedia";
import { withWarnings } from "../withWarnings";

const subject = "OpenAIResponsesChatGenerator";
const encryptedReasoning = "reasoning.encrypted_content";

/** Options of `new OpenAIResponsesChatGenerator(...)`. */
export interface OpenAIResponsesChatGeneratorOptions extends OpenAIConnectionOptions {
  /**
   * Options for every request (temperature, max_output_tokens, `reasoning: { effort, summary }`,
   * `text: { verbosity }`, …); per-run ones win. A run with an `outputSchema` sets `text.format`
   * (other `text` options are kept); `include` is added to, see `includeEncryptedReasoning`.
   * `previous_response_id` and `conversation` are refused: every call sends the whole conversation.
   */
  generationKwargs?: Record<string, unknown>;
  /**
   * Whether OpenAI keeps each response (the API's `store`). Default false: the generator is
   * stateless either way, sending the whole conversation on every call, so a run can pause,
   * become a snapshot and resume in another process, or a conversation can be edited, without
   * any state on OpenAI's side; `store: true` only lets OpenAI keep the responses (its dashboard,
   * logs and evals).
   */
  store?: boolean;
  /**
   * Whether to ask for the model's reasoning in encrypted form (`include:
   * ["reasoning.encrypted_content"]`), kept in the reply's reasoning parts and sent back on the
   * next call, so that a reasoning model continues its reasoning across tool calls without OpenAI
   * storing it. Default true. OpenAI answers 400 "Encrypted content is not supported with this
   * model." for models that do not reason (gpt-4o, gpt-4.1): set false for those.
   */
  includeEncryptedReasoning?: boolean;
}

/**
 * A chat model behind the OpenAI Responses API (`POST /v1/responses`, or a compatible server),
 * using the official `openai` SDK: the API for OpenAI's reasoning models, whose reasoning it
 * carries from one call to the next. Stateless: every call sends the whole conversation with
 * `store: false`, and the model's reasoning travels in the messages as reasoning parts whose
 * `extra` is the encrypted reasoning item. Streams when the request has a streaming callback
 * (text, reasoning summary and tool-call deltas). A request's `responseFormat` is sent as
 * `text.format`. Failures reject as OpenAIChatGenerator's do: a ChatGeneratorError for any
 * failure of the provider (a failed response or `error` event included), an AbortError for an
 * abort through the request's signal.
 *
 * @example
 * const chatGenerator = new OpenAIResponsesChatGenerator({ model: "gpt-5-mini", generationKwargs: { reasoning: { effort: "low", summary: "auto" } } });
 */
export class OpenAIResponsesChatGenerator implements ChatGenerator {
  readonly model: string;
  /** `openai`: the API it speaks, whatever server is behind `baseURL`. */
  readonly provider = "openai";
  /** The client requests go through: the one given as `client`, else one built from the connection options. */
  readonly client: OpenAIClient;
  /** Whether OpenAI keeps the responses (`store`). */
  readonly store: boolean;
  readonly #includeEncryptedReasoning: boolean;
  readonly #connection: OpenAIConnection;

  constructor(options: OpenAIResponsesChatGeneratorOptions) {
    this.#connection = new OpenAIConnection(subject, options, "gpt-5-mini");
    this.store = checkBoolean(options, "store", false);
    this.#includeEncryptedReasoning = checkBoolean(options, "includeEncryptedReasoning", true);
    refuseStoredState(options.generationKwargs);
    this.model = this.#connection.model;
    this.client = this.#connection.client;
  }

  /** The client's base URL: the server traces name as `server.address` and `server.port`. */
  get serverUrl(): string {
    return this.client.baseURL;
  }

  /**
   * This generator as data: `{ type: "OpenAIResponsesChatGenerator", options: { model, apiKey: { env }, … } }`,
   * as `OpenAIChatGenerator.toJSON()` writes it, with `store` and `includeEncryptedReasoning` when
   * given. `openaiResponsesChatGeneratorFromDefinition` reverses it. Throws DefinitionError when
   * the key was given as `apiKey` or a `client` was given.
   */
  toJSON(): ChatGeneratorDefinition {
    return { type: subject, options: toDefinitionOptions(subject, this.#connection.given, responsesDefinitionOptions) };
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const connection = this.#connection;
    refuseStoredState(request.generationKwargs);
    const kwargs: Record<string, unknown> = { ...connection.generationKwargs, ...(request.generationKwargs ?? {}) };
    const hasTools = request.tools.length > 0;
    if (!hasTools) {
      // The API refuses these without tools.
      delete kwargs.parallel_tool_calls;
      delete kwargs.tool_choice;
    }
    const include = this.#includeEncryptedReasoning ? [...new Set([...(Array.isArray(kwargs.include) ? kwargs.include : []), encryptedReasoning])] : kwargs.include;
    const text = toTextConfig(kwargs.text, request.responseFormat);
    const described = new MediaWarnings(subject);
    const body = {
      ...kwargs,
      model: this.model,
      input: toResponsesInput(request.messages, { store: this.store, warnings: described }),
      store: this.store,
      ...(include !== undefined && { include }),
      ...(text !== undefined && { text }),
      ...(hasTools && { tools: toResponsesTools(request.tools, connection.toolsStrict) }),
    };
    // Through `client.post`, as `client.responses.create` sends it, without the SDK's `output_text`
    // helper, which throws a TypeError on a body that is not a response.
    const post = <T>(stream: boolean, options: OpenAIRequestOptions) => this.client.post<T>("/responses", { body: { ...body, stream }, ...options, stream });
    const response = await connection.call(request.signal, async ({ send, scope, provider }) => {
      try {
        if (request.streamingCallback) {
          const stream = await send((options) => post<AsyncIterable<unknown>>(true, options));
          return await collectResponsesStream(stream, request.streamingCallback, scope, provider);
        }
        return fromResponse(await send((options) => post<unknown>(false, options)), this.model);
      } catch (error) {
        throw withReasoningHint(error);
      }
    });
    return withWarnings(response, described.warnings);
  }
}

function checkBoolean(options: OpenAIResponsesChatGeneratorOptions, name: "store" | "includeEncryptedReasoning", fallback: boolean): boolean {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  throw optionError(subject, [name], `${subject} needs ${name} to be true or false, got ${describeKind(value)}.`);
}

function refuseStoredState(kwargs: Readonly<Record<string, unknown>> | undefined): void {
  for (const key of ["previous_response_id", "conversation"]) {
    if (kwargs?.[key] !== undefined) {
      throw optionError(subject, ["generationKwargs", key], `${subject} sends the whole conversation on every call, so generationKwargs.${key} would send a stored one with it; leave ${key} out.`);
    }
  }
}

// OpenAI's answer when a model that does not reason is asked for encrypted reasoning.
function withReasoningHint(error: unknown): unknown {
  if (!(error instanceof ChatGeneratorError) || error.status !== 400 || !/encrypted content is not supported/i.test(error.providerMessage ?? "")) return error;
  return new ChatGeneratorError(`${error.message} Pass includeEncryptedReasoning: false for a model that does not reason.`, { cause: error.cause, status: error.status, providerMessage: error.providerMessage });
}
