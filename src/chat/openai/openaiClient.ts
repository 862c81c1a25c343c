/** The options of one attempt, as the SDK's request methods take them: its own retries off. */
export interface OpenAIRequestOptions {
  readonly signal: AbortSignal;
  readonly maxRetries: 0;
  readonly headers: Record<string, string>;
}

/**
 * The part of an `openai` client the OpenAI generators use. Any `new OpenAI(...)` fits: openai 6 or
 * 7, its CommonJS or its ES-module declarations (which TypeScript treats as two different `OpenAI`
 * classes, so a parameter typed with the class would refuse the app's client under `nodenext`).
 */
export interface OpenAIClient {
  /** Where requests go, e.g. `https://api.openai.com/v1`. */
  readonly baseURL: string;
  /** How long one attempt waits, in ms. */
  readonly timeout: number;
  /** The client's retries, the generator's default for its own `maxRetries`. */
  readonly maxRetries: number;
  /** `POST /chat/completions`, which OpenAIChatGenerator sends. */
  readonly chat: {
    readonly completions: {
      /** A streamed completion: the chunks as they arrive. */
      create(body: { readonly stream: true }, options: OpenAIRequestOptions): PromiseLike<AsyncIterable<unknown>>;
      /** A whole completion. */
      create(body: object, options: OpenAIRequestOptions): PromiseLike<unknown>;
    };
  };
  /** A POST to `path` under `baseURL`; OpenAIResponsesChatGenerator sends `/responses` with it. */
  post<T>(path: string, options: object): PromiseLike<T>;
  /** `POST /moderations`, so that a generator's `client` can be given to `openAIModeration`. */
  readonly moderations: {
    /** Classifies `input` with the moderation `model`. */
    create(body: { input: string; model: string }, options?: { signal?: AbortSignal }): PromiseLike<unknown>;
  };
}
