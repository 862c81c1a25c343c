import { ConfigurationError, DefinitionError } from "../../errors";
import { chatDefinitionOptions, responsesDefinitionOptions } from "./definitionOptions";
import { OpenAIChatGenerator, type OpenAIChatGeneratorOptions } from "./openaiChatGenerator";
import { OpenAIResponsesChatGenerator, type OpenAIResponsesChatGeneratorOptions } from "./openaiResponsesChatGenerator";
import { readDefinitionOptions } from "./readDefinitionOptions";

type Path = readonly (string | number)[];

/**
 * Builds an `OpenAIChatGenerator` from the options of its definition (what `toJSON()` wrote, or a
 * file's `chatGenerator.options`, found at `path`), which are untrusted: only the known options
 * (model, apiKey, baseURL, organization, generationKwargs, timeout, maxRetries, maxRetryDelayMs,
 * deadlineMs, streamIdleTimeoutMs, toolsStrict), each of its JSON type, with the key named by
 * environment variable, `apiKey: { env: "NAME" }`, and read now (`OPENAI_API_KEY` when left out).
 * Throws DefinitionError at the path of the first problem, the constructor's included.
 *
 * @example
 * const generator = openaiChatGeneratorFromDefinition({ model: "gpt-4o-mini", apiKey: { env: "SUPPORT_OPENAI_KEY" } }, ["chatGenerator", "options"]);
 */
export function openaiChatGeneratorFromDefinition(options: unknown, path: Path): OpenAIChatGenerator {
  const given = readDefinitionOptions("OpenAIChatGenerator", chatDefinitionOptions, options, path);
  return build(path, () => new OpenAIChatGenerator(given as unknown as OpenAIChatGeneratorOptions));
}

/**
 * Builds an `OpenAIResponsesChatGenerator` from the options of its definition, as
 * `openaiChatGeneratorFromDefinition` does, with `store` and `includeEncryptedReasoning` too.
 */
export function openaiResponsesChatGeneratorFromDefinition(options: unknown, path: Path): OpenAIResponsesChatGenerator {
  const given = readDefinitionOptions("OpenAIResponsesChatGenerator", responsesDefinitionOptions, options, path);
  return build(path, () => new OpenAIResponsesChatGenerator(given as unknown as OpenAIResponsesChatGeneratorOptions));
}

// The constructor's checks, located at the option they are about.
function build<T>(path: Path, construct: () => T): T {
  try {
    return construct();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const option = error.optionPath ?? [];
    const at = option[0] === "apiKeyEnv" ? ["apiKey", "env"] : option;
    throw new DefinitionError([...path, ...at], error.message, { cause: error });
  }
}
