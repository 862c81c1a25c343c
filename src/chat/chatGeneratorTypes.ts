import type { ChatGenerator } from "./chatGenerator";

/** A chat generator type that agent definitions may name (`chatGenerator: { type, options }`). */
export interface ChatGeneratorType {
  /**
   * The environment variable the generator reads its API key from when its options give none
   * (`OPENAI_API_KEY`): a definition that leaves `apiKey` out must be allowed to read it.
   */
  readonly apiKeyEnv?: string;
  /** Builds the generator from a definition's options (untrusted data); a problem is a `DefinitionError` at `path`. */
  fromDefinition(options: unknown, path: readonly (string | number)[]): ChatGenerator;
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
