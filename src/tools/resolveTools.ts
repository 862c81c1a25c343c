import { ConfigurationError } from "../errors";
import { describeKind } from "../util/describeValue";
import { decoratedTools } from "./decoratedTools";
import { Tool } from "./tool";
import { toolLeftOut, Toolset } from "./toolset";

/** What an Agent accepts as tools: `Tool`s, `Toolset`s, and objects with `@tool` methods. */
export type ToolSource = Tool | Toolset | object;

/**
 * Flattens tool sources into tools by name, in order. Throws `ConfigurationError` for something
 * that is not a tool source and for duplicate names (naming both tools). A tool of a Toolset in
 * `changed` (its tools were replaced since they were checked) that has the name of another tool is
 * left out instead, and its Toolset is told: a server's new tool list must not break an Agent.
 */
export function resolveTools(sources: readonly ToolSource[], subject: string, changed?: ReadonlySet<Toolset>): Map<string, Tool> {
  if (!Array.isArray(sources)) {
    throw new ConfigurationError(subject, `${subject} needs tools as an array of Tool, Toolset or objects with @tool methods, got ${describeKind(sources)}.`);
  }
  const byName = new Map<string, Tool>();
  // The names of the sources that did not change: those tools win over a changed Toolset's.
  const kept = changed?.size ? new Map([...resolveTools(sources.filter((source) => !(source instanceof Toolset && changed.has(source))), subject)]) : undefined;
  let from: Toolset | undefined;
  const add = (tool: Tool) => {
    const existing = byName.get(tool.name) ?? (from && kept?.get(tool.name));
    if (existing && from && changed?.has(from)) {
      toolLeftOut(from, { tool, reason: `${subject} has another tool named '${tool.name}': ${describeOrigin(existing)}.` });
      return;
    }
    if (existing) {
      throw new ConfigurationError(
        subject,
        `${subject} has two tools named '${tool.name}': ${describeOrigin(existing)} and ${describeOrigin(tool)}; tool names must be unique, so rename one (the name option of @tool or Tool).`,
      );
    }
    byName.set(tool.name, tool);
  };
  const positions = new Map<unknown, number>();
  for (const [index, source] of sources.entries()) {
    const earlier = positions.get(source);
    if (earlier !== undefined) {
      throw new ConfigurationError(subject, `${subject} was given the same ${describeSource(source)} twice, at tools[${earlier}] and tools[${index}]; pass each tool source once.`);
    }
    positions.set(source, index);
    if (source instanceof Tool) {
      add(source);
      continue;
    }
    if (source instanceof Toolset) {
      from = source;
      source.tools.forEach(add);
      from = undefined;
      continue;
    }
    const decorated = (typeof source === "object" && source !== null) || typeof source === "function" ? decoratedTools(source) : undefined;
    if (decorated) {
      decorated.forEach(add);
    } else {
      throw new ConfigurationError(
        subject,
        `${subject} was given ${describeKind(source)} at tools[${index}], which is not a tool: pass Tool objects, Toolsets, instances of classes with @tool methods (or the class, for static ones), or defineTool results.`,
      );
    }
  }
  return byName;
}

function describeSource(source: unknown): string {
  if (source instanceof Tool) return `Tool '${source.name}'`;
  if (source instanceof Toolset) return source.name === undefined ? "Toolset" : `Toolset '${source.name}'`;
  if (typeof source === "function") return `class ${source.name || "(anonymous)"}`;
  return `${describeKind(source).replace(/^an? /, "")} instance`;
}

function describeOrigin(tool: Tool): string {
  return tool.source ? `${tool.source}` : `Tool '${tool.name}'`;
}
