import type { DefinedTool } from "../../decorators";
import type { ChatGenerator } from "../chat/chatGenerator";
import { ConfigurationError } from "../errors";
import type { ConfirmationPolicy, ConfirmationStrategy } from "../hitl/confirmationTypes";
import type { Tool } from "../tools/tool";
import type { Toolset } from "../tools/toolset";
import { describeKind } from "../util/describeValue";
import type { ChatGeneratorOptionsDefinition } from "./agentDefinition";

/** Makes a chat generator from a definition's options (checked by you: they are untrusted data). */
export type ChatGeneratorFactory = (options: ChatGeneratorOptionsDefinition) => ChatGenerator;

/**
 * What an agent definition may name besides the generated modules' tools: everything that is code.
 * A definition from a file or a request can reach nothing else, so register only what a definition
 * may use. Names are looked up as own properties: `constructor` or `__proto__` find nothing.
 *
 * @example
 * const registry: AgentRegistry = {
 *   classes: { SupportTools: () => new SupportTools(store) },
 *   handlers: { keepLatestTicket },
 * };
 */
export interface AgentRegistry {
  /** Class name → makes the instance whose `@tool` methods a `{ class }` reference uses (called once per definition read). */
  readonly classes?: Readonly<Record<string, () => object>>;
  /** Name → a `Tool` (an agent's `asTool()` too) or a `defineTool` function, for `{ tool }` references. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a defineTool function of any signature
  readonly tools?: Readonly<Record<string, Tool | DefinedTool<(...args: any[]) => unknown>>>;
  /** Name → a `Toolset` (an MCP server's too), for `{ toolset }` references. */
  readonly toolsets?: Readonly<Record<string, Toolset>>;
  /** Name → a merge handler `(current, incoming) => merged`, or an `outputsToString` handler. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers are written against their keys' own types
  readonly handlers?: Readonly<Record<string, (...args: any[]) => unknown>>;
  /** Type name → a chat generator, or a factory of one from the definition's options. */
  readonly chatGenerators?: Readonly<Record<string, ChatGenerator | ChatGeneratorFactory>>;
  /** Name → a confirmation strategy (one with an `ask` function is code, so it is registered). */
  readonly confirmationStrategies?: Readonly<Record<string, ConfirmationStrategy>>;
  /** Name → a confirmation policy for `deferred` strategies. */
  readonly confirmationPolicies?: Readonly<Record<string, ConfirmationPolicy>>;
}

export type RegistrySection = keyof AgentRegistry;

const sections: readonly RegistrySection[] = ["classes", "tools", "toolsets", "handlers", "chatGenerators", "confirmationStrategies", "confirmationPolicies"];

/** Checks the registry's shape (a programming error, so a ConfigurationError, not a DefinitionError). */
export function checkRegistry(registry: unknown): AgentRegistry {
  if (registry === undefined) return {};
  if (typeof registry !== "object" || registry === null || Array.isArray(registry)) {
    throw new ConfigurationError("registry", `The registry must be an object of sections (${sections.join(", ")}), got ${describeKind(registry)}.`);
  }
  for (const key of Object.keys(registry)) {
    if (!(sections as readonly string[]).includes(key)) {
      throw new ConfigurationError("registry", `The registry has a section '${key}', which is not one of ${sections.join(", ")}; check its spelling.`);
    }
    const section: unknown = (registry as Record<string, unknown>)[key];
    if (section !== undefined && (typeof section !== "object" || section === null || Array.isArray(section))) {
      throw new ConfigurationError("registry", `registry.${key} must be an object of name → entry, got ${describeKind(section)}.`);
    }
  }
  return registry as AgentRegistry;
}

/** The entry registered under `name` in a section, as an own property only. */
export function registered<K extends RegistrySection>(registry: AgentRegistry, section: K, name: string): NonNullable<AgentRegistry[K]>[string] | undefined {
  const entries = registry[section] as Record<string, unknown> | undefined;
  if (!entries || !Object.hasOwn(entries, name)) return undefined;
  return entries[name] as NonNullable<AgentRegistry[K]>[string];
}

/** The names of a section, for messages. */
export function registeredNames(registry: AgentRegistry, section: RegistrySection): string[] {
  return Object.keys(registry[section] ?? {});
}

/** The name an entry is registered under (by identity), for `toJSON`. */
export function nameOf(registry: AgentRegistry, section: RegistrySection, value: unknown): string | undefined {
  const entries = registry[section] as Record<string, unknown> | undefined;
  if (!entries) return undefined;
  return Object.keys(entries).find((name) => entries[name] === value);
}
