import { ChatGeneratorError, ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import type { Guardrail } from "./guardrail";
import { type BuiltinVerdict, builtinOptions, failedVerdict } from "./builtinVerdict";

/** The part of an OpenAI client the moderation guardrail uses (an `OpenAI` instance, such as `OpenAIChatGenerator`'s `client`, has it). */
export interface ModerationClient {
  readonly moderations: {
    /** Classifies the text (OpenAI's `client.moderations.create`). */
    create(body: { input: string; model: string }, options?: { signal?: AbortSignal }): PromiseLike<unknown>;
  };
}

/** Options of `openAIModeration`. */
export interface OpenAIModerationOptions {
  /** The OpenAI client to call: pass an `OpenAIChatGenerator`'s `client` to share its connection (key, baseURL, retries, timeout). */
  readonly client: ModerationClient;
  /** The moderation model; default `"omni-moderation-latest"`. */
  readonly model?: string;
  /** Only these categories fail the text (`"violence"`, `"self-harm/intent"`, …); default: whatever the endpoint flags. */
  readonly categories?: readonly string[];
  /** What a flagged text gets; default `"trip"`. */
  readonly verdict?: BuiltinVerdict;
  /** The guardrail's name; default `"openai-moderation"`. */
  readonly name?: string;
}

/**
 * A guardrail over OpenAI's moderation endpoint (`POST /moderations`): a text it flags fails, with
 * the flagged categories in the reason and the details. An empty text passes without a request.
 * A failed request throws a ChatGeneratorError (the run ends with a MiddlewareError whose cause it is).
 */
export function openAIModeration(options: OpenAIModerationOptions): Guardrail {
  const client = options?.client;
  if (typeof client?.moderations?.create !== "function") {
    throw new ConfigurationError("openAIModeration", `openAIModeration needs client, an OpenAI client (new OpenAI(...) or an OpenAIChatGenerator's client), got ${describeKind(client)}.`, { optionPath: ["client"] });
  }
  const { model = "omni-moderation-latest", categories } = options;
  if (typeof model !== "string" || model === "") throw new ConfigurationError("openAIModeration", `openAIModeration has a model that is not a non-empty string; leave it out for "omni-moderation-latest".`, { optionPath: ["model"] });
  if (categories !== undefined && (!Array.isArray(categories) || categories.some((c) => typeof c !== "string"))) {
    throw new ConfigurationError("openAIModeration", `openAIModeration has categories that is ${describeKind(categories)}, not an array of category names such as "violence".`, { optionPath: ["categories"] });
  }
  const { verdict, name } = builtinOptions("openAIModeration", options, "openai-moderation");
  return {
    name,
    async check({ text }, { signal }) {
      if (text === "") return { pass: true };
      let response: unknown;
      try {
        response = await client.moderations.create({ input: text, model }, { signal });
      } catch (error) {
        if (signal.aborted) throw error;
        throw requestError(model, error);
      }
      const flagged = flaggedCategories(model, response).filter((c) => categories === undefined || categories.includes(c));
      if (flagged.length === 0) return { pass: true };
      return failedVerdict(verdict, `OpenAI moderation flagged the text for ${flagged.join(", ")}.`, { categories: flagged, model });
    },
  };
}

// The response is the provider's: every field is checked before it is read.
function flaggedCategories(model: string, response: unknown): string[] {
  const results = (response as { results?: unknown } | null)?.results;
  if (!Array.isArray(results) || results.length === 0) throw badResponse(model, `without a results array (got ${describeKind(results)})`);
  const flagged = new Set<string>();
  results.forEach((result: unknown, i) => {
    const { flagged: isFlagged, categories } = (result ?? {}) as { flagged?: unknown; categories?: unknown };
    if (typeof isFlagged !== "boolean" || typeof categories !== "object" || categories === null || Array.isArray(categories)) {
      throw badResponse(model, `with results[${i}] lacking a boolean flagged and a categories object`);
    }
    for (const [category, value] of Object.entries(categories)) if (value === true) flagged.add(category);
    if (isFlagged && flagged.size === 0) flagged.add("unspecified");
  });
  return [...flagged];
}

function badResponse(model: string, detail: string): ChatGeneratorError {
  return new ChatGeneratorError(`OpenAI moderation request for model '${model}' was answered ${detail}; check that the client's baseURL points at an OpenAI-compatible moderation endpoint.`);
}

function requestError(model: string, error: unknown): ChatGeneratorError {
  const { status, error: body } = (error ?? {}) as { status?: unknown; error?: { message?: unknown } };
  // The SDK's own message starts with the status; the provider's message is in its `error` body.
  const providerMessage = typeof body?.message === "string" ? body.message : undefined;
  const detail = (providerMessage ?? (error instanceof Error ? error.message : describeKind(error))).replace(/\.$/, "");
  if (typeof status === "number") {
    return new ChatGeneratorError(`OpenAI moderation request for model '${model}' failed with status ${status}: ${detail}.`, { cause: error, status, providerMessage: detail });
  }
  return new ChatGeneratorError(`OpenAI moderation request for model '${model}' failed: ${detail}.`, { cause: error });
}
