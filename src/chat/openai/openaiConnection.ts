import OpenAI from "openai";
import { describeKind } from "../../util/describeValue";
import type { AbortScope } from "../../util/abortScope";
import { checkMilliseconds, type OptionOwner, readModelCallOptions } from "../generatorOptionChecks";
import { closeModelCallScope, type ModelCallLimits, openModelCallScope } from "../modelCallScope";
import { type RetryPolicy, retryModelCall } from "../retryModelCall";
import type { OpenAIClient, OpenAIRequestOptions } from "./openaiClient";
import { optionError } from "./optionError";
import { isRetryable, retryAfterMsOf } from "./retryPolicy";
import { type ProviderCall, providerFault, toChatGeneratorError } from "./toChatGeneratorError";

/** The options both OpenAI generators take: the model, the connection, retries and time limits. */
export interface OpenAIConnectionOptions {
  /** The model, e.g. `gpt-4o-mini`, or the name an OpenAI-compatible server knows. */
  model: string;
  /** Default: `OPENAI_API_KEY`. Not needed for a local server given by `baseURL`/`OPENAI_BASE_URL`. */
  apiKey?: string;
  /**
   * The name of the environment variable that holds the API key (`"MY_OPENAI_KEY"`), read when the
   * generator is built; it must be set. Unlike `apiKey`, it has a data form: `toJSON()` writes it
   * as `apiKey: { env: "MY_OPENAI_KEY" }`. Not with `apiKey`.
   */
  apiKeyEnv?: string;
  /** An OpenAI-compatible endpoint (Ollama, vLLM, LM Studio, Azure, …). Default: `OPENAI_BASE_URL`, else OpenAI. */
  baseURL?: string;
  /** The `OpenAI-Organization` header. */
  organization?: string;
  /** Options for every request (temperature, max tokens, …); per-run ones win. */
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
  /**
   * A ready client, `new OpenAI(...)` from the `openai` your app imports (any module system);
   * `apiKey`, `apiKeyEnv`, `baseURL`, `organization` and `timeout` are then ignored. A generator
   * with a client has no data form (`toJSON()` throws).
   */
  client?: OpenAIClient;
}

/** One model call in progress: its abort scope, and `send` for its requests. */
export interface OpenAICall {
  readonly scope: AbortScope;
  readonly provider: ProviderCall;
  /**
   * Sends a request made by `create` with toolwright's retry policy (the SDK's retries are off:
   * its waits cannot be cut short by an abort, nor capped); a failure is a ChatGeneratorError.
   */
  send<T>(create: (options: OpenAIRequestOptions) => PromiseLike<T>): Promise<T>;
}

/**
 * What the OpenAI generators share, checked once when one is built: the client, the model, the
 * generation options, the retry policy and the time limits of every call.
 */
export class OpenAIConnection {
  readonly model: string;
  readonly client: OpenAIClient;
  readonly generationKwargs: Readonly<Record<string, unknown>>;
  readonly toolsStrict: boolean;
  /** The options the generator was built with (a shallow copy, with generationKwargs as copied above), for `toJSON()`. */
  readonly given: Readonly<Record<string, unknown>>;
  readonly #retry: RetryPolicy;
  readonly #limits: ModelCallLimits;

  /** `subject` is the generator's class name and `exampleModel` a model it suits, for the messages of a bad option. */
  constructor(subject: string, options: OpenAIConnectionOptions, exampleModel: string) {
    if (typeof options !== "object" || options === null || typeof options.model !== "string" || options.model === "") {
      throw optionError(subject, ["model"], `${subject} needs a model name, e.g. new ${subject}({ model: "${exampleModel}" }), got ${describeKind(options?.model)}.`);
    }
    const owner: OptionOwner = { subject, optionError: (name, message) => optionError(subject, [name], message) };
    checkMilliseconds(options.timeout, { ...owner, name: "timeout", example: 600_000 });
    this.model = options.model;
    this.generationKwargs = { ...(options.generationKwargs ?? {}) };
    this.toolsStrict = options.toolsStrict ?? true;
    ({ retry: this.#retry, limits: this.#limits } = readModelCallOptions({ ...options, maxRetries: options.maxRetries ?? options.client?.maxRetries ?? 2 }, owner, { isRetryable, retryAfterMs: retryAfterMsOf }));
    this.client = options.client ?? createClient(subject, options);
    this.given = Object.freeze({ ...options, ...(options.generationKwargs !== undefined && { generationKwargs: this.generationKwargs }) });
  }

  /**
   * Runs one model call: `work` sends its requests through the call it is given, under the call's
   * limits (the caller's `signal`, the deadline, the stream idle timeout). Rejects with the abort's
   * error once the call has aborted, else with what `work` threw.
   */
  async call<T>(signal: AbortSignal | undefined, work: (call: OpenAICall) => Promise<T>): Promise<T> {
    const provider: ProviderCall = { model: this.model, timeoutMs: this.client.timeout, baseURL: this.client.baseURL };
    const model = this.model;
    const scope = openModelCallScope(signal, this.#limits, (detail) => providerFault(model, detail));
    const retry = this.#retry;
    const send = async <R>(create: (options: OpenAIRequestOptions) => PromiseLike<R>): Promise<R> => {
      try {
        return await retryModelCall((attemptSignal, attempt) => create({ signal: attemptSignal, maxRetries: 0, headers: { "x-stainless-retry-count": String(attempt) } }), scope, retry);
      } catch (error) {
        throw toChatGeneratorError(error, provider, "body");
      }
    };
    try {
      return await work({ scope, provider, send });
    } catch (error) {
      throw scope.aborted ? scope.reason : error;
    } finally {
      closeModelCallScope(scope);
    }
  }
}

function createClient(subject: string, options: OpenAIConnectionOptions): OpenAI {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  const apiKey = options.apiKeyEnv !== undefined ? readApiKeyEnv(subject, options) : (options.apiKey ?? process.env.OPENAI_API_KEY ?? (baseURL ? "not-needed" : undefined));
  if (!apiKey) {
    throw optionError(
      subject,
      ["apiKey"],
      `${subject} needs an API key: pass apiKey or set OPENAI_API_KEY; for a local OpenAI-compatible server, pass baseURL (or set OPENAI_BASE_URL) instead.`,
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

/** Whether `name` can name an environment variable: letters, digits and underscores, not starting with a digit (POSIX's portable names). */
export function isEnvironmentName(name: unknown): name is string {
  return typeof name === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

function readApiKeyEnv(subject: string, options: OpenAIConnectionOptions): string {
  const name: unknown = options.apiKeyEnv;
  if (options.apiKey !== undefined) {
    throw optionError(subject, ["apiKeyEnv"], `${subject} was given both apiKey and apiKeyEnv; pass one: apiKeyEnv names the environment variable that holds the key, apiKey is the key itself.`);
  }
  if (!isEnvironmentName(name)) {
    // A string is not echoed: it may be the key itself, given by mistake.
    const got = typeof name === "string" ? "a string that is not a variable name" : describeKind(name);
    throw optionError(subject, ["apiKeyEnv"], `${subject} needs apiKeyEnv to be the name of an environment variable (letters, digits and underscores, not starting with a digit), e.g. apiKeyEnv: "OPENAI_API_KEY", got ${got}.`);
  }
  const value = Object.hasOwn(process.env, name) ? process.env[name] : undefined;
  if (typeof value !== "string" || value === "") {
    throw optionError(subject, ["apiKeyEnv"], `${subject} reads its API key from the environment variable ${name}, which is not set; set ${name}, or name the variable that holds the key.`);
  }
  return value;
}
