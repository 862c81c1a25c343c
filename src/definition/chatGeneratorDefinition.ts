import type { ChatGenerator, ChatGeneratorDefinition } from "../chat/chatGenerator";
import { type ChatGeneratorTypeContext, chatGeneratorType, chatGeneratorTypeNames } from "../chat/chatGeneratorTypes";
import { ConfigurationError, DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { type AgentRegistry, nameOf, registered, registeredNames } from "./agentRegistry";
import { readChatGeneratorDefinition } from "./readDefinition";

// The generator types the definition format documents, and the import that registers each: a
// definition naming one whose integration was not imported is told which import to add.
const documentedTypes: Readonly<Record<string, string>> = Object.freeze({
  FallbackChatGenerator: "toolwright",
  OpenAIChatGenerator: "toolwright/openai",
  OpenAIResponsesChatGenerator: "toolwright/openai",
  ScriptedChatGenerator: "toolwright/testing",
});

/** Which secrets and endpoints a definition may use (`Agent.fromJSON`'s `allowedEnv` and `allowedBaseURLs`). */
export interface DefinitionTrust {
  readonly allowedEnv: readonly string[];
  readonly allowedBaseURLs: readonly string[];
}

/**
 * How deep chat generators may nest in a definition (a `FallbackChatGenerator` in a
 * `FallbackChatGenerator`): the definition's own is at depth 0, each enclosing generator adds one.
 */
export const maxChatGeneratorNesting = 3;

/**
 * The chat generator a definition names: a `registry.chatGenerators` entry first (it is given the
 * options as they are), else a type an imported integration registered (`registerChatGeneratorType`),
 * whose secrets (`{ env }`) must name allowed variables and whose `baseURL` an allowed endpoint: a
 * definition cannot send a key to a server of its choosing. A generator nested in another's options
 * (`FallbackChatGenerator`'s `generators`) is read the same way, at its own path.
 */
export function chatGeneratorFromDefinition(definition: ChatGeneratorDefinition, registry: AgentRegistry, trust: DefinitionTrust): ChatGenerator;
/** With `build: false`, only checks it (the type, the trust rules): for a generator the app replaces. */
export function chatGeneratorFromDefinition(definition: ChatGeneratorDefinition, registry: AgentRegistry, trust: DefinitionTrust, build: false): undefined;
export function chatGeneratorFromDefinition(definition: ChatGeneratorDefinition, registry: AgentRegistry, trust: DefinitionTrust, build = true): ChatGenerator | undefined {
  return readAt(definition, { registry, trust, build, path: ["chatGenerator"], depth: 0 });
}

interface Reading {
  readonly registry: AgentRegistry;
  readonly trust: DefinitionTrust;
  readonly build: boolean;
  readonly path: readonly (string | number)[];
  readonly depth: number;
}

function readAt(definition: ChatGeneratorDefinition, reading: Reading): ChatGenerator | undefined {
  const { registry, trust, build, path } = reading;
  const own = registered(registry, "chatGenerators", definition.type);
  if (own !== undefined && !build) return undefined;
  if (own !== undefined) {
    if (typeof (own as ChatGenerator).run === "function") {
      if (definition.options !== undefined) throw new DefinitionError([...path, "options"], `is given for '${definition.type}', a ready generator in registry.chatGenerators; remove the options, or register a factory (options) => generator.`);
      return own as ChatGenerator;
    }
    if (typeof own !== "function") throw new ConfigurationError("registry", `registry.chatGenerators.${definition.type} must be a chat generator or a function (options) => generator, got ${describeKind(own)}.`);
    let made: unknown;
    try {
      made = own(definition.options ?? {});
    } catch (error) {
      if (error instanceof DefinitionError) throw error;
      throw new DefinitionError([...path, "options"], `were refused by registry.chatGenerators.${definition.type}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
    if (typeof (made as ChatGenerator | null)?.run !== "function") throw new ConfigurationError("registry", `registry.chatGenerators.${definition.type} returned ${describeKind(made)}, not a chat generator (an object with run(request)).`);
    return made as ChatGenerator;
  }
  const type = chatGeneratorType(definition.type);
  if (!type) {
    if (Object.hasOwn(documentedTypes, definition.type)) {
      throw new DefinitionError(
        [...path, "type"],
        `names chat generator '${definition.type}', whose integration is not loaded; import "${documentedTypes[definition.type]}" before reading the definition, or register the type in registry.chatGenerators.`,
      );
    }
    throw new DefinitionError(
      [...path, "type"],
      `names chat generator '${definition.type}', which is neither built in (${chatGeneratorTypeNames().join(", ") || "none loaded"}) nor in registry.chatGenerators; fix the type or register it. Registered: ${registeredNames(registry, "chatGenerators").join(", ") || "none"}.`,
    );
  }
  checkTrust(definition.options ?? {}, trust, [...path, "options"]);
  // Without apiKey the generator reads its key from the environment: a read like any other.
  const options = definition.options ?? {};
  const env = type.apiKeyEnv;
  if (env !== undefined && !Object.hasOwn(options, "apiKey") && process.env[env] && !trust.allowedEnv.includes(env)) {
    throw new DefinitionError([...path, "options"], `has no apiKey, so the generator would read ${env}, which the app has not allowed a definition to read; name an allowed variable (apiKey: { env: "NAME" }), or allow ${env} with fromJSON(data, { allowedEnv: [...] }). Allowed: ${trust.allowedEnv.join(", ") || "none"}.`);
  }
  const context = nestedContext(reading);
  if (!build) {
    type.check?.(options, [...path, "options"], context);
    return undefined;
  }
  return type.fromDefinition(options, [...path, "options"], context);
}

// Reads the generators nested in one's options with the same registry and trust, one level deeper.
function nestedContext(outer: Reading): ChatGeneratorTypeContext {
  const at = (definition: unknown, path: readonly (string | number)[], build: boolean) => {
    const depth = outer.depth + 1;
    if (depth > maxChatGeneratorNesting) throw new DefinitionError(path, nestingReason(depth));
    return readAt(readChatGeneratorDefinition(definition, [...path]), { ...outer, build, path, depth });
  };
  return {
    resolve: (definition, path) => at(definition, path, true)!,
    check: (definition, path) => void at(definition, path, false),
  };
}

function nestingReason(depth: number): string {
  return `is a chat generator inside ${depth} others; a definition nests chat generators at most ${maxChatGeneratorNesting} deep: list the generators in one FallbackChatGenerator instead.`;
}

function checkTrust(options: Readonly<Record<string, unknown>>, trust: DefinitionTrust, path: (string | number)[]): void {
  if (Object.hasOwn(options, "baseURL") && typeof options.baseURL === "string" && !trust.allowedBaseURLs.includes(options.baseURL)) {
    throw new DefinitionError(
      [...path, "baseURL"],
      `is an endpoint the app has not allowed, and the generator would send it the API key; allow it with fromJSON(data, { allowedBaseURLs: [...] }), or leave baseURL out (OPENAI_BASE_URL or OpenAI's API is used). Allowed: ${trust.allowedBaseURLs.join(", ") || "none"}.`,
    );
  }
  for (const [key, value] of Object.entries(options)) {
    const env = (value as { env?: unknown } | null)?.env;
    if (typeof value === "object" && value !== null && !Array.isArray(value) && typeof env === "string") checkEnv(env, trust, [...path, key, "env"]);
  }
}

/** Checks that a definition may read an environment variable. */
export function checkEnv(name: string, trust: DefinitionTrust, path: (string | number)[]): void {
  if (!trust.allowedEnv.includes(name)) {
    throw new DefinitionError(path, `names environment variable ${name}, which the app has not allowed a definition to read; allow it with fromJSON(data, { allowedEnv: [...] }). Allowed: ${trust.allowedEnv.join(", ") || "none"}.`);
  }
}

/**
 * A chat generator as data, for `toJSON`: its registry name, else its own `toJSON()`, given a
 * context that writes the generators nested in it the same way, at their own paths.
 */
export function chatGeneratorToDefinition(generator: ChatGenerator, registry: AgentRegistry, path: readonly (string | number)[] = ["chatGenerator"]): ChatGeneratorDefinition {
  return writeAt(generator, registry, path, 0);
}

function writeAt(generator: ChatGenerator, registry: AgentRegistry, path: readonly (string | number)[], depth: number): ChatGeneratorDefinition {
  if (depth > maxChatGeneratorNesting) throw new DefinitionError(path, nestingReason(depth));
  const name = nameOf(registry, "chatGenerators", generator);
  if (name !== undefined) return { type: name };
  if (typeof generator.toJSON === "function") return generator.toJSON({ path, write: (inner, at) => writeAt(inner, registry, at, depth + 1) });
  throw new DefinitionError(
    path,
    `is ${describeKind(generator)}, which has no data form (no toJSON method): register it (registry.chatGenerators) and pass the registry to toJSON({ registry }), or give the generator a toJSON() returning { type, options }.`,
  );
}
