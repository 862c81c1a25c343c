import { closestName } from "../../util/closestName";

// Haystack's names for OpenAI generator options that `closestName` does not match by case and
// underscores, and the constructor's name for the key's data form.
const aliases = new Map<string, string>([
  ["api_base_url", "baseURL"],
  ["apiBaseUrl", "baseURL"],
  ["apiKeyEnv", 'apiKey: { env: "NAME" }'],
  ["api_key_env", 'apiKey: { env: "NAME" }'],
]);

/**
 * The option a mistyped one most likely means, as a message shows it: a Haystack name
 * (`api_base_url`, `generation_kwargs`, `max_retries`), the same name in another case
 * (`baseUrl`), or one a few edits away (`organisation`); `undefined` when none is close.
 */
export function suggestOption(name: string, known: readonly string[]): string | undefined {
  return aliases.get(name) ?? closestName(name, known);
}
