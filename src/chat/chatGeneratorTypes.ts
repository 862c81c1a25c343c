import type { ChatGenerator } from "./chatGenerator";

/**
 * What a generator type's reader is given besides its options: how to read a chat generator nested
 * in them (`FallbackChatGenerator`'s `generators`) with the same registry and trust rules as the
 * definition's own `chatGenerator`.
 */
export interface ChatGeneratorTypeContext {
  /**
   * The generator a nested definition names (`{ type, options? }`, untrusted, found at `path`):
   * read exactly as a top-level one is (`registry.chatGenerators`, the registered types,
   * `allowedEnv`, `allowedBaseURLs`, the `apiKeyEnv` rule); a problem is a `DefinitionError` at its path.
   */
  resolve(definition: unknown, path: readonly (string | number)[]): ChatGenerator;
  /** Checks a nested definition as `resolve` reads it (the type, the trust rules) without building it. */
  check(definition: unknown, path: readonly (string | number)[]): void;
}

/** A chat generator type that agent definitions may name (`chatGenerator: { type, options }`). */
export interface ChatGeneratorType {
  /**
   * The environment variable the generator reads its API key from when its options give none
   * (`OPENAI_API_KEY`): a definition that leaves `apiKey` out must be allowed to read it.
   */
  readonly apiKeyEnv?: string;
  /**
   * Builds the generator from a definition's options (untrusted data); a problem is a
   * `DefinitionError` at `path`. A type whose options hold other generators reads them with `context.resolve`.
   */
  fromDefinition(options: unknown, path: readonly (string | number)[], context: ChatGeneratorTypeContext): ChatGenerator;
  /**
   * Checks the options without building the generator, when the app replaces it
   * (`fromJSON(data, { chatGenerator })`): for a type whose options hold other generators, which
   * it checks with `context.check`. Without it only the trust rules are checked.
   */
  check?(options: unknown, path: readonly (string | number)[], context: ChatGeneratorTypeContext): void;
}

// On globalThis, like the generated schemas' registry: two copies of the package (CommonJS and ESM)
// read the types either one's integrations registered.
const key = Symbol.for("toolwright.chatGeneratorTypes.v1");

function types(): Map<string, ChatGeneratorType> {
  const holder = globalThis as { [key]?: Map<string, ChatGeneratorType> };
  return (holder[key] ??= new Map());
}

/**
 * Makes `type` a chat generator type that agent definitions may name. Called by each integration's
 * entry when it is imported; registering a name again replaces its entry.
 */
export function registerChatGeneratorType(type: string, definition: ChatGeneratorType): void {
  types().set(type, definition);
}

/** The registered chat generator type of that name, if any. */
export function chatGeneratorType(type: string): ChatGeneratorType | undefined {
  return types().get(type);
}

/** The registered chat generator types' names, sorted (for messages). */
export function chatGeneratorTypeNames(): string[] {
  return [...types().keys()].sort();
}
