import type { JsonValue } from "../state/jsonCodec";
import type { JsonSchema } from "../tools/jsonSchema";
import type { ChatMessage } from "./chatMessage";
import type { StreamingCallback } from "./streaming";

/** A tool as a chat generator sends it to the model. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of the arguments the model may send (injected parameters are not in it). */
  readonly parameters: JsonSchema;
  /** Whether the schema is strict-compatible (generators may send it in strict mode). */
  readonly strict: boolean;
}

/** Token counts reported by the provider. */
export interface TokenUsage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly totalTokens?: number;
}

/**
 * The final answer's required shape, when the run has an `outputSchema`: generators ask the
 * provider for JSON matching `schema` (OpenAI `response_format` / `text.format`, the AI SDK's
 * `responseFormat`). The Agent validates the answer itself either way, so a generator whose model
 * cannot enforce it may ignore it.
 */
export interface ResponseFormat {
  readonly type: "json_schema";
  /** A name for the schema (`^[a-zA-Z0-9_-]{1,64}$`), as OpenAI requires one. */
  readonly name: string;
  readonly description?: string;
  /** The answer's JSON Schema (draft 2020-12, made from the zod schema), as a tool's `parameters` are. */
  readonly schema: JsonSchema;
  /**
   * Whether `schema` is strict-compatible, as `ToolSpec.strict`: a generator that uses OpenAI
   * strict mode sends its strict form (optional properties required and nullable), as it does for
   * tools; the Agent turns a `null` sent for an optional property back into "absent".
   */
  readonly strict: boolean;
}

/** One call to a chat model. */
export interface ChatGeneratorRequest {
  /**
   * The whole conversation so far, as a frozen copy of the run's history: a generator can keep it,
   * and cannot change the run's history through it.
   */
  readonly messages: readonly ChatMessage[];
  /** The tools the model may call this step. */
  readonly tools: readonly ToolSpec[];
  /** The final answer's JSON shape, when the run has an `outputSchema`. */
  readonly responseFormat?: ResponseFormat;
  /** Provider options for this call (temperature, max tokens, …). */
  readonly generationKwargs?: Readonly<Record<string, unknown>>;
  /** When given, the generator streams and forwards text and tool-call deltas. */
  readonly streamingCallback?: StreamingCallback;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** What a chat model answered. */
export interface ChatGeneratorResponse {
  readonly replies: ChatMessage[];
  readonly meta?: {
    readonly model?: string;
    readonly usage?: TokenUsage;
    readonly finishReason?: string;
    /** The provider's warnings about the call, one line each (a setting it ignored); the run hands them to `onModelEnd`. */
    readonly warnings?: readonly string[];
    readonly [key: string]: unknown;
  };
}

/**
 * A chat generator as data, in an agent definition: its type (a name the definition's loader
 * knows: a built-in generator or a `registry.chatGenerators` entry) and its options. Secrets are
 * never values, only environment-variable names: `apiKey: { env: "OPENAI_API_KEY" }`.
 */
export interface ChatGeneratorDefinition {
  readonly type: string;
  readonly options?: Readonly<Record<string, JsonValue>>;
}

/**
 * What `toJSON` is given when an agent definition is written (`agent.toJSON({ registry })`): where
 * the generator is, and how to write a generator nested in it with the same registry.
 */
export interface ChatGeneratorWriteContext {
  /** Where this generator is in the definition (`["chatGenerator"]`), for `DefinitionError` paths. */
  readonly path: readonly (string | number)[];
  /**
   * A nested generator as data, found at `path`: its `registry.chatGenerators` name, else its own
   * `toJSON()`; a `DefinitionError` at `path` when it has neither.
   */
  write(generator: ChatGenerator, path: readonly (string | number)[]): ChatGeneratorDefinition;
}

/** A chat model the Agent can call: the OpenAI generator, the scripted one, or your own. */
export interface ChatGenerator {
  /** The model it calls (`gpt-4o-mini`), for traces and lifecycle events. */
  readonly model?: string;
  /** The provider, as OpenTelemetry's `gen_ai.provider.name` names it (`openai`, `anthropic`, …). */
  readonly provider?: string;
  /** The URL of the server it calls (`https://api.openai.com/v1`), for traces' `server.address` and `server.port`. */
  readonly serverUrl?: string;
  /** Calls the model once with the conversation and the tools' schemas; resolves with its replies. */
  run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse>;
  /**
   * This generator as data, for `agent.toJSON()`: a generator without it can only be named by a
   * `registry.chatGenerators` entry. Throws `DefinitionError` when an option has no data form (a
   * secret given as a value, a client object). A generator holding others writes them with
   * `context.write` (given when an agent definition is written).
   */
  toJSON?(context?: ChatGeneratorWriteContext): ChatGeneratorDefinition;
}
