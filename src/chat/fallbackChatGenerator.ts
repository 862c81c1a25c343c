import { AbortError, ConfigurationError, DefinitionError, describeError } from "../errors";
import type { JsonValue } from "../state/jsonCodec";
import { describeKind } from "../util/describeValue";
import type { ChatGenerator, ChatGeneratorDefinition, ChatGeneratorRequest, ChatGeneratorResponse, ChatGeneratorWriteContext } from "./chatGenerator";
import { type FallbackAttempt, FallbackChatGeneratorError, FallbackPolicyError } from "./fallbackErrors";
import { isTransientFailure } from "./isTransientFailure";
import type { StreamingCallback } from "./streaming";

/** What one generator's turn came to, as `shouldFallBack` sees it: an error, or an answer. */
export type FallbackOutcome =
  | { readonly error: unknown; readonly response?: undefined; readonly generator: ChatGenerator; readonly index: number }
  | { readonly response: ChatGeneratorResponse; readonly error?: undefined; readonly generator: ChatGenerator; readonly index: number };

/** Options of `new FallbackChatGenerator(...)`. */
export interface FallbackChatGeneratorOptions {
  /** The generators, tried in order: the first that answers is used. At least one. */
  readonly generators: readonly ChatGenerator[];
  /**
   * Whether to try the next generator after this turn. Default: for an error, `isTransientFailure`
   * (429, 408, 409, 5xx, timeouts, connection and stream failures); an answer is used. Give your
   * own to fall back on refusals, e.g. `(o) => o.response ? o.response.replies.some((r) => r.meta.refusal !== undefined) : isTransientFailure(o.error)`.
   * Never asked about an abort, nor about a turn that has streamed a chunk. Code only: an agent
   * definition has no data form for it (its fallback uses the default), and `toJSON()` of a
   * generator given one throws a `DefinitionError` unless the generator is registered.
   */
  readonly shouldFallBack?: (outcome: FallbackOutcome) => boolean;
}

/**
 * A chat generator over a list of generators, tried in order: when one fails with an error its
 * policy falls back on (by default a rate limit, a server error or a timeout, see
 * `isTransientFailure`) or gives an answer the policy refuses, the next one gets the same request.
 * A turn that has already streamed a chunk is final, as the caller has seen its text: its error is
 * thrown and its answer used. The answer's `meta.fallbackAttempts` lists every turn, its
 * `meta.usage` is the answering generator's; `model` and `provider` are the first generator's (the
 * run's observer sees one model call, whose `responseModel` names the model that answered). When
 * every generator fails, it rejects with a FallbackChatGeneratorError listing them; an error the
 * policy does not fall back on is thrown as it is. As data, in an agent definition:
 * `{ type: FallbackChatGenerator, options: { generators: [{ type, options }, …] } }`, each inner
 * generator read like the definition's own (`shouldFallBack` is code only).
 *
 * @example
 * const chatGenerator = new FallbackChatGenerator({
 *   generators: [new OpenAIChatGenerator({ model: "gpt-4o" }), new AISdkChatGenerator({ model: anthropic("claude-sonnet-4-5") })],
 * });
 */
export class FallbackChatGenerator implements ChatGenerator {
  /** The first generator's model, for traces and lifecycle events. */
  readonly model: string | undefined;
  /** The first generator's provider. */
  readonly provider: string | undefined;
  /** The first generator's server URL. */
  readonly serverUrl: string | undefined;
  /** The generators, in the order they are tried. */
  readonly generators: readonly ChatGenerator[];
  readonly #shouldFallBack: (outcome: FallbackOutcome) => boolean;
  readonly #hasPolicy: boolean;

  constructor(options: FallbackChatGeneratorOptions) {
    const generators: unknown = (options as Partial<FallbackChatGeneratorOptions> | null | undefined)?.generators;
    checkGeneratorList(generators);
    for (const [i, generator] of generators.entries()) {
      if (typeof (generator as ChatGenerator | null)?.run !== "function") {
        throw new ConfigurationError("FallbackChatGenerator", `FallbackChatGenerator needs generators[${i}] to be a chat generator (an object with run(request)), got ${describeKind(generator)}.`, { optionPath: ["generators", String(i)] });
      }
    }
    const policy: unknown = options.shouldFallBack;
    if (policy !== undefined && typeof policy !== "function") {
      throw new ConfigurationError("FallbackChatGenerator", `FallbackChatGenerator needs shouldFallBack to be a function (outcome) => boolean, got ${describeKind(policy)}.`, { optionPath: ["shouldFallBack"] });
    }
    this.generators = Object.freeze([...(generators as ChatGenerator[])]);
    this.#shouldFallBack = (policy as FallbackChatGeneratorOptions["shouldFallBack"]) ?? defaultShouldFallBack;
    this.#hasPolicy = policy !== undefined;
    const first = this.generators[0]!;
    this.model = first.model;
    this.provider = first.provider;
    this.serverUrl = first.serverUrl;
  }

  async run(request: ChatGeneratorRequest): Promise<ChatGeneratorResponse> {
    const attempts: FallbackAttempt[] = [];
    const last = this.generators.length - 1;
    for (const [index, generator] of this.generators.entries()) {
      const turn = { index, model: generator.model, provider: generator.provider };
      const stream = watchStream(request.streamingCallback);
      let response: ChatGeneratorResponse;
      try {
        response = await generator.run(stream.callback ? { ...request, streamingCallback: stream.callback } : request);
      } catch (error) {
        if (request.signal?.aborted || error instanceof AbortError || stream.streamed || !this.#ask({ error, generator, index })) throw error;
        attempts.push({ ...turn, outcome: "failed", error: describeError(error), ...statusOf(error) });
        if (index === last) throw new FallbackChatGeneratorError(allFailed(attempts), attempts, error);
        continue;
      }
      if (index < last && !stream.streamed && this.#ask({ response, generator, index })) {
        const usage = response?.meta?.usage;
        attempts.push({ ...turn, outcome: "refused", ...(usage !== undefined && { usage }) });
        continue;
      }
      attempts.push({ ...turn, outcome: "answered" });
      return { ...response, meta: { ...response?.meta, model: response?.meta?.model ?? generator.model, fallbackAttempts: attempts } };
    }
    // Unreachable: the constructor requires one generator, and the last one's turn returns or throws.
    throw new FallbackChatGeneratorError(allFailed(attempts), attempts, undefined);
  }

  /**
   * This generator as data: `{ type: "FallbackChatGenerator", options: { generators } }`, each inner
   * generator by its registry name or its own `toJSON()` (through `context` when an agent
   * definition is written). Throws `DefinitionError` for a `shouldFallBack` policy (code, with no
   * data form) and for an inner generator with no data form, at its path.
   */
  toJSON(context?: ChatGeneratorWriteContext): ChatGeneratorDefinition {
    // JSON.stringify calls toJSON(key) with a string: only an object is a context.
    const given = typeof context === "object" && context !== null ? context : undefined;
    const path = given?.path ?? ["chatGenerator"];
    if (this.#hasPolicy) {
      throw new DefinitionError(
        path,
        "is a FallbackChatGenerator with a shouldFallBack policy, a function, which has no data form: register the generator (registry.chatGenerators) and pass the registry to toJSON({ registry }), or leave shouldFallBack out to use the default policy.",
      );
    }
    const write = given?.write ?? standaloneWrite;
    const generators = this.generators.map((generator, i) => write(generator, [...path, "options", "generators", i]) as unknown as JsonValue);
    return { type: "FallbackChatGenerator", options: { generators } };
  }

  #ask(outcome: FallbackOutcome): boolean {
    let verdict: unknown;
    try {
      verdict = this.#shouldFallBack(outcome);
    } catch (error) {
      throw new FallbackPolicyError(`FallbackChatGenerator's shouldFallBack threw on generators[${outcome.index}]'s ${outcome.response ? "answer" : "error"}: ${describeError(error)}; make it return true or false.`, { cause: error });
    }
    if (typeof verdict !== "boolean") {
      throw new FallbackPolicyError(`FallbackChatGenerator's shouldFallBack returned ${describeKind(verdict)} for generators[${outcome.index}]'s ${outcome.response ? "answer" : "error"}; it must return true or false (a promise is not awaited).`);
    }
    return verdict;
  }
}

/** Throws the constructor's ConfigurationError (at option `generators`) unless `generators` is a non-empty array. */
export function checkGeneratorList(generators: unknown): asserts generators is readonly unknown[] {
  if (!Array.isArray(generators) || generators.length === 0) {
    throw new ConfigurationError("FallbackChatGenerator", `FallbackChatGenerator needs generators, a non-empty array of chat generators tried in order, e.g. new FallbackChatGenerator({ generators: [primary, backup] }), got ${Array.isArray(generators) ? "an empty array" : describeKind(generators)}.`, { optionPath: ["generators"] });
  }
}

// Called on its own (no agent definition being written): no registry. Required here, so that the
// generator alone does not load the definition format.
function standaloneWrite(generator: ChatGenerator, path: readonly (string | number)[]): ChatGeneratorDefinition {
  return (require("../definition/chatGeneratorDefinition") as typeof import("../definition/chatGeneratorDefinition")).chatGeneratorToDefinition(generator, {}, path);
}

function defaultShouldFallBack(outcome: FallbackOutcome): boolean {
  return outcome.response === undefined && isTransientFailure(outcome.error);
}

// The caller's callback, noting whether a chunk went through: from then on the caller has seen this turn's output.
function watchStream(callback: StreamingCallback | undefined): { callback: StreamingCallback | undefined; readonly streamed: boolean } {
  const watch = {
    streamed: false,
    callback: callback && ((chunk: Parameters<StreamingCallback>[0]) => {
      watch.streamed = true;
      return callback(chunk);
    }),
  };
  return watch;
}

function statusOf(error: unknown): { status?: number } {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? { status } : {};
}

function allFailed(attempts: readonly FallbackAttempt[]): string {
  const turns = attempts.map((a) => `generators[${a.index}] (model '${a.model ?? "unnamed"}'): ${(a.error ?? "no error").replace(/\.$/, "")}`);
  return `FallbackChatGenerator tried ${attempts.length} generator${attempts.length === 1 ? "" : "s"} and each failed: ${turns.join("; ")}.`;
}
