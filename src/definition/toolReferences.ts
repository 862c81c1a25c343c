import { decorationOf } from "../../decorators";
import type { NormalizedStateKey } from "../state/stateSchema";
import { checkToolStateKeys } from "../agent/validateAgentOptions";
import { decoratedTools } from "../tools/decoratedTools";
import type { ToolSource } from "../tools/resolveTools";
import { generatedEntries, type RegisteredEntry } from "../tools/schemaRegistry";
import { Tool } from "../tools/tool";
import { Toolset } from "../tools/toolset";
import { ConfigurationError, DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import type { ClassToolsReference, NamedToolReference, ToolReference, ToolSettings } from "./agentDefinition";
import { type AgentRegistry, nameOf, registered, registeredNames } from "./agentRegistry";
import { toolVariant } from "./toolVariant";

/**
 * The tool sources a definition's `tools` name: classes of the generated modules (instances from
 * `registry.classes`), `registry.tools` entries and generated `defineTool` functions, and
 * `registry.toolsets` entries; with their settings applied and checked against the state keys as
 * the Agent checks them. Nothing else can be reached from a definition.
 */
export function resolveToolReferences(references: readonly ToolReference[], registry: AgentRegistry, stateKeys: ReadonlyMap<string, NormalizedStateKey>): ToolSource[] {
  const sources: ToolSource[] = [];
  for (const [index, reference] of references.entries()) {
    const path = ["tools", index];
    const resolved = "class" in reference ? classTools(reference, registry, path) : "tool" in reference ? [namedTool(reference, registry, path)] : [toolsetNamed(reference.toolset, registry, [...path, "toolset"])];
    for (const source of resolved) {
      for (const tool of source instanceof Toolset ? source.tools : [source]) checkStateKeys(tool, stateKeys, settingsOf(reference, tool.name, path));
    }
    sources.push(...resolved);
  }
  return sources;
}

function classTools(reference: ClassToolsReference, registry: AgentRegistry, path: (string | number)[]): Tool[] {
  const owner = generatedClass(reference, path);
  const records = generatedEntries().filter((record) => record.entry.kind === "method" && record.entry.owner() === owner);
  const tools: Tool[] = [];
  if (records.some((record) => !record.entry.static)) tools.push(...decoratedTools(instanceOf(reference.class, owner, registry, [...path, "class"]))!);
  if (records.some((record) => record.entry.static)) tools.push(...decoratedTools(owner)!);
  const names = tools.map((tool) => tool.name);
  const unknown = (name: string, at: (string | number)[]) =>
    new DefinitionError(at, `names tool '${name}', which class ${reference.class} does not have; its tools: ${names.join(", ")}.`);
  reference.include?.forEach((name, i) => {
    if (!names.includes(name)) throw unknown(name, [...path, "include", i]);
  });
  for (const name of Object.keys(reference.tools ?? {})) {
    if (!names.includes(name)) throw unknown(name, [...path, "tools", name]);
    if (reference.include && !reference.include.includes(name)) throw new DefinitionError([...path, "tools", name], `has settings for tool '${name}', which include leaves out; add it to include, or remove its settings.`);
  }
  const chosen = reference.include ? tools.filter((tool) => reference.include!.includes(tool.name)) : tools;
  return chosen.map((tool) => {
    const settings: ToolSettings | undefined = reference.tools && Object.hasOwn(reference.tools, tool.name) ? reference.tools[tool.name] : undefined;
    return settings ? toolVariant(tool, settings, registry, [...path, "tools", tool.name]) : tool;
  });
}

// The class a reference names, among the generated modules' classes (by name, and file when given).
function generatedClass(reference: ClassToolsReference, path: (string | number)[]): Function {
  const classes = new Map<Function, RegisteredEntry>();
  for (const record of generatedEntries()) {
    if (record.entry.kind !== "method") continue;
    const owner = record.entry.owner();
    if (typeof owner === "function" && !classes.has(owner)) classes.set(owner, record);
  }
  const named = [...classes].filter(([owner]) => owner.name === reference.class);
  const matching = reference.file === undefined ? named : named.filter(([, record]) => record.entry.source === reference.file);
  if (matching.length === 1) return matching[0]![0];
  const available = [...classes].map(([owner, record]) => `${owner.name} (${record.entry.source})`).join(", ") || "none (import the generated module before reading the definition)";
  if (matching.length === 0 && named.length > 0) {
    throw new DefinitionError([...path, "file"], `is '${reference.file}', but class ${reference.class} is declared in ${named.map(([, r]) => r.entry.source).join(", ")}; fix the file, or leave it out.`);
  }
  if (matching.length === 0) {
    throw new DefinitionError([...path, "class"], `names class '${reference.class}', which no imported generated module describes; name a class with @tool methods, run toolwright codegen, and import the generated module first. Classes: ${available}.`);
  }
  throw new DefinitionError([...path, "class"], `names class '${reference.class}', which is declared in more than one file (${matching.map(([, r]) => r.entry.source).join(", ")}); add file: <one of them>.`);
}

function instanceOf(name: string, owner: Function, registry: AgentRegistry, path: (string | number)[]): object {
  const factory = registered(registry, "classes", name);
  if (factory === undefined) {
    throw new DefinitionError(path, `names class '${name}', whose tools are instance methods, but registry.classes has no '${name}'; add ${name}: () => new ${name}(...) to registry.classes. Registered: ${registeredNames(registry, "classes").join(", ") || "none"}.`);
  }
  if (typeof factory !== "function") throw new ConfigurationError("registry", `registry.classes.${name} must be a function that makes the instance, got ${describeKind(factory)}.`);
  let instance: unknown;
  try {
    instance = factory();
  } catch (error) {
    throw new DefinitionError(path, `could not be made: registry.classes.${name} threw ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
  if (!(instance instanceof owner)) {
    throw new ConfigurationError("registry", `registry.classes.${name} made ${describeKind(instance)}, not an instance of ${name}; return new ${name}(...).`);
  }
  return instance;
}

function namedTool(reference: NamedToolReference, registry: AgentRegistry, path: (string | number)[]): Tool {
  const { tool: name, ...settings } = reference;
  return toolVariant(toolNamed(name, registry, [...path, "tool"]), settings, registry, path);
}

function toolNamed(name: string, registry: AgentRegistry, path: (string | number)[]): Tool {
  const entry = registered(registry, "tools", name);
  if (entry instanceof Tool) return entry;
  if (entry !== undefined) {
    const tools = typeof entry === "function" && decorationOf(entry)?.kind === "function" ? decoratedTools(entry) : undefined;
    if (!tools) throw new ConfigurationError("registry", `registry.tools.${name} must be a Tool or a defineTool function, got ${describeKind(entry)}.`);
    return tools[0]!;
  }
  const generated = generatedEntries().find((record) => record.entry.kind === "function" && record.entry.name === name);
  if (generated) return decoratedTools(generated.entry.owner() as object)![0]!;
  const functions = generatedEntries().filter((record) => record.entry.kind === "function").map((record) => record.entry.name);
  throw new DefinitionError(
    path,
    `names tool '${name}', which is neither in registry.tools nor a defineTool function of the imported generated modules; register the Tool (registry.tools.${name}) or fix the name. Registered: ${registeredNames(registry, "tools").join(", ") || "none"}; generated functions: ${functions.join(", ") || "none"}.`,
  );
}

function toolsetNamed(name: string, registry: AgentRegistry, path: (string | number)[]): Toolset {
  const toolset = registered(registry, "toolsets", name);
  if (toolset instanceof Toolset) return toolset;
  if (toolset !== undefined) throw new ConfigurationError("registry", `registry.toolsets.${name} must be a Toolset, got ${describeKind(toolset)}.`);
  throw new DefinitionError(path, `names toolset '${name}', which registry.toolsets does not have; register it or fix the name. Registered: ${registeredNames(registry, "toolsets").join(", ") || "none"}.`);
}

/** A tool's settings in a reference, and where they are. */
interface SettingsAt {
  readonly settings: ToolSettings | undefined;
  readonly path: (string | number)[];
}

function settingsOf(reference: ToolReference, toolName: string, path: (string | number)[]): SettingsAt {
  if ("tool" in reference) return { settings: reference, path };
  if ("class" in reference && reference.tools && Object.hasOwn(reference.tools, toolName)) return { settings: reference.tools[toolName], path: [...path, "tools", toolName] };
  return { settings: undefined, path };
}

// The Agent's own check of a tool's state keys, reported at the setting that made the mapping
// (the tool's reference when the mapping is the code's).
function checkStateKeys(tool: Tool, stateKeys: ReadonlyMap<string, NormalizedStateKey>, at: SettingsAt): void {
  try {
    checkToolStateKeys([tool], stateKeys);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const setting = / through outputsToState/.test(error.message) ? "outputsToState" : "inputsFromState";
    const path = at.settings?.[setting] !== undefined ? [...at.path, setting] : at.path;
    throw new DefinitionError(path, error.message, { cause: error });
  }
}

/**
 * The references of an Agent's tool sources, for `toJSON`: an object with `@tool` methods as its
 * class, a `Tool` or `defineTool` function by its registry name (else its tool name), a `Toolset`
 * by its registry name (else its own name).
 */
export function toolReferencesOf(sources: readonly ToolSource[], registry: AgentRegistry): ToolReference[] {
  return sources.map((source, index) => {
    const path = ["tools", index];
    if (source instanceof Tool) return { tool: nameOf(registry, "tools", source) ?? source.name };
    if (source instanceof Toolset) {
      const name = nameOf(registry, "toolsets", source) ?? source.name;
      if (name === undefined) throw new DefinitionError(path, "is a Toolset without a name: register it (registry.toolsets) and pass the registry to toJSON({ registry }), or give it a name.");
      return { toolset: name };
    }
    const handle = decorationOf(source);
    if (typeof source === "function" && handle?.kind === "function") {
      return { tool: nameOf(registry, "tools", source) ?? decoratedTools(source)![0]!.name };
    }
    const owner = (typeof source === "function" ? source : (source as { constructor?: unknown }).constructor) as Function | undefined;
    const record = generatedEntries().find((r) => r.entry.kind === "method" && r.entry.owner() === owner);
    if (!owner || !record) throw new DefinitionError(path, `is ${describeKind(source)}, which no imported generated module describes; a definition names tools by their generated class, registry name or tool name.`);
    const namesake = generatedEntries().some((r) => r.entry.kind === "method" && r.entry.owner() !== owner && (r.entry.owner() as Function | undefined)?.name === owner.name);
    return namesake ? { class: owner.name, file: record.entry.source } : { class: owner.name };
  });
}
