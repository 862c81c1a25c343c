import { DefinitionError } from "../../errors";
import type { JsonValue } from "../../state/jsonCodec";
import { copyJsonData } from "./jsonData";

/** One option of an OpenAI generator's definition: its JSON type, and an example value for messages. */
export interface DefinitionOption {
  readonly name: string;
  readonly kind: "model" | "apiKey" | "string" | "object" | "number" | "boolean";
  readonly example: string;
}

function connectionOptions(exampleModel: string): DefinitionOption[] {
  return [
    { name: "model", kind: "model", example: `"${exampleModel}"` },
    { name: "apiKey", kind: "apiKey", example: '{ env: "OPENAI_API_KEY" }' },
    { name: "baseURL", kind: "string", example: '"http://localhost:11434/v1"' },
    { name: "organization", kind: "string", example: '"org-123"' },
    { name: "generationKwargs", kind: "object", example: "{ temperature: 0 }" },
    { name: "timeout", kind: "number", example: "600000" },
    { name: "maxRetries", kind: "number", example: "2" },
    { name: "maxRetryDelayMs", kind: "number", example: "60000" },
    { name: "deadlineMs", kind: "number", example: "600000" },
    { name: "streamIdleTimeoutMs", kind: "number", example: "300000" },
    { name: "toolsStrict", kind: "boolean", example: "true" },
  ];
}

/** The options of an `OpenAIChatGenerator` definition, in the order `toJSON()` writes them. */
export const chatDefinitionOptions: readonly DefinitionOption[] = Object.freeze(connectionOptions("gpt-4o-mini"));

/** The options of an `OpenAIResponsesChatGenerator` definition, in the order `toJSON()` writes them. */
export const responsesDefinitionOptions: readonly DefinitionOption[] = Object.freeze([
  ...connectionOptions("gpt-5-mini"),
  { name: "store", kind: "boolean", example: "false" },
  { name: "includeEncryptedReasoning", kind: "boolean", example: "true" },
]);

/** Where `agent.toJSON()` puts a generator's options. */
const optionsPath = ["chatGenerator", "options"] as const;

/**
 * A generator's definition options, from the options it was built with (`given`, the validated
 * ones): the model, `apiKey: { env }` (the `apiKeyEnv` given, else `OPENAI_API_KEY`), then every
 * other option that was given, in `options`' order. Throws DefinitionError for an API key given as
 * a value or a ready client, which have no data form, and for generationKwargs that are not JSON data.
 */
export function toDefinitionOptions(subject: string, given: Readonly<Record<string, unknown>>, options: readonly DefinitionOption[]): Record<string, JsonValue> {
  if (given.client !== undefined) {
    throw new DefinitionError(
      [...optionsPath, "client"],
      `is a ready OpenAI client given to ${subject}, which has no data form; build the generator from connection options (apiKeyEnv, baseURL, organization, timeout, maxRetries) instead, or name it through registry.chatGenerators.`,
    );
  }
  if (given.apiKey !== undefined) {
    throw new DefinitionError(
      [...optionsPath, "apiKey"],
      `is ${subject}'s API key given as a value, and a definition never holds secrets; build the generator with apiKeyEnv: "NAME" (the environment variable that holds the key), or leave apiKey out to read OPENAI_API_KEY.`,
    );
  }
  const out: Record<string, JsonValue> = {};
  for (const { name } of options) {
    if (name === "apiKey") {
      out.apiKey = { env: typeof given.apiKeyEnv === "string" ? given.apiKeyEnv : "OPENAI_API_KEY" };
      continue;
    }
    const value = given[name];
    if (value !== undefined) out[name] = copyJsonData(value, [...optionsPath, name]);
  }
  return out;
}
