import type { ToolReference, ToolSettings } from "../definition/agentDefinition";
import { setOwn } from "../util/ownProperty";
import type { HandlerNames } from "./handlerNames";
import { asMapping, type ImportContext, shortName, type YamlPath } from "./importContext";

/** A Haystack `Tool` whose function is Python: it becomes a stubbed `@tool` method. */
export interface PythonTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The dotted path of the Python function (or `async_function`). */
  readonly function: string;
  readonly settings: ToolSettings;
  readonly path: YamlPath;
}

/** The converted `tools`: references in order (`class` stands for the stub class), and the Python tools. */
export interface ConvertedTools {
  readonly references: (ToolReference | "class")[];
  readonly python: PythonTool[];
}

const toolType = "haystack.tools.tool.Tool";
const toolsetType = "haystack.tools.toolset.Toolset";
// Tools that wrap something other than a function, by serialized type: each is a registry tool and hand work.
const wrappers: Readonly<Record<string, { kind: "componentTool" | "pipelineTool" | "agentTool" | "mcpTool"; what: string }>> = Object.freeze({
  "haystack.tools.component_tool.ComponentTool": { kind: "componentTool", what: "a ComponentTool (it runs a Haystack component)" },
  "haystack.tools.pipeline_tool.PipelineTool": { kind: "pipelineTool", what: "a PipelineTool (it runs a Haystack pipeline)" },
  "haystack.tools.agent_tool.AgentTool": { kind: "agentTool", what: "an AgentTool (it runs a Haystack Agent; convert that Agent too and use agent.asTool())" },
  "haystack_integrations.tools.mcp.mcp_tool.MCPTool": { kind: "mcpTool", what: "an MCPTool (a tool of an MCP server; connect it with toolwright/mcp)" },
});

/**
 * Haystack's serialized `tools` (a list of Tools and Toolsets, or one Toolset) as definition tool
 * references: a Python-function `Tool` becomes a method of the stub class (hand work: its body); a
 * plain `Toolset` is flattened, as Haystack's Agent flattens it; component, pipeline, agent and MCP
 * tools become `{ tool: name }` registry references with their settings, and any other toolset a
 * `{ toolset }` reference — each hand work.
 */
export function convertTools(value: unknown, path: YamlPath, context: ImportContext, handlers: HandlerNames): ConvertedTools {
  const out: ConvertedTools = { references: [], python: [] };
  if (value === undefined || value === null) return out;
  if (Array.isArray(value)) value.forEach((entry, i) => convertEntry(entry, [...path, i], context, handlers, out));
  else if (asMapping(value)) convertEntry(value, path, context, handlers, out);
  else context.problem(path, "is not a list of tools or a Toolset: a Haystack Agent's tools are serialized as [{ type, data }] or one { type, data }.");
  return out;
}

function convertEntry(value: unknown, path: YamlPath, context: ImportContext, handlers: HandlerNames, out: ConvertedTools): void {
  const entry = asMapping(value);
  const data = asMapping(entry?.data);
  if (!entry || typeof entry.type !== "string" || !data) {
    context.problem(path, "is not a serialized tool: Haystack writes each tool as { type: <class path>, data: { … } }.");
    return;
  }
  const dataPath = [...path, "data"];
  if (entry.type === toolsetType) {
    if (!Array.isArray(data.tools)) return context.problem([...dataPath, "tools"], "is not a list: a serialized Toolset is { type, data: { tools: [...] } }.");
    data.tools.forEach((tool, i) => convertEntry(tool, [...dataPath, "tools", i], context, handlers, out));
    return;
  }
  const name = typeof data.name === "string" ? data.name : undefined;
  if (entry.type === toolType && name !== undefined) {
    const python = typeof data.function === "string" ? data.function : typeof data.async_function === "string" ? data.async_function : undefined;
    const functionPath = [...dataPath, typeof data.function === "string" || typeof data.async_function !== "string" ? "function" : "async_function"];
    if (python === undefined) return context.problem(functionPath, `is missing: Tool '${name}' has neither function nor async_function (a dotted path to a Python function).`);
    if (!out.references.includes("class")) out.references.push("class");
    out.python.push({ name, description: typeof data.description === "string" ? data.description : "", parameters: asMapping(data.parameters) ?? { type: "object", properties: {} }, function: python, settings: settingsOf(data, dataPath, context, handlers), path: dataPath });
    context.todo(functionPath, "function", `Port the Python function ${python} of tool '${name}' to the body of its @tool method.`);
    return;
  }
  const wrapper = wrappers[entry.type];
  if (name !== undefined) {
    const what = wrapper?.what ?? `a ${shortName(entry.type)} (${entry.type})`;
    context.todo([...path, "type"], wrapper?.kind ?? "toolset", `Tool '${name}' is ${what}: build it in TypeScript and register it as registry.tools.${name}.`);
    const settings = settingsOf(data, dataPath, context, handlers);
    const description = typeof data.description === "string" ? { description: data.description } : {};
    out.references.push({ tool: name, ...description, ...settings });
    return;
  }
  const toolset = entry.type.includes(".mcp.") ? "mcp" : shortName(entry.type);
  let unique = toolset;
  for (let n = 2; out.references.some((ref) => ref !== "class" && "toolset" in ref && ref.toolset === unique); n++) unique = `${toolset}${n}`;
  const mcp = entry.type.startsWith("haystack_integrations.tools.mcp.");
  context.todo([...path, "type"], mcp ? "mcpTool" : "toolset", `${mcp ? "The MCP toolset" : `Toolset ${entry.type}`} has no data form in toolwright: build it in TypeScript${mcp ? " (MCPToolset from toolwright/mcp)" : ""} and register it as registry.toolsets.${unique}.`);
  out.references.push({ toolset: unique });
}

// inputs_from_state, outputs_to_state and outputs_to_string, with handlers by name.
function settingsOf(data: Readonly<Record<string, unknown>>, path: YamlPath, context: ImportContext, handlers: HandlerNames): ToolSettings {
  const settings: { -readonly [K in keyof ToolSettings]: ToolSettings[K] } = {};
  const inputs = asMapping(data.inputs_from_state);
  if (inputs) {
    const mapped: Record<string, string> = {};
    for (const [stateKey, parameter] of Object.entries(inputs)) if (typeof parameter === "string") setOwn(mapped, stateKey, parameter);
    settings.inputsFromState = mapped;
  }
  const outputs = asMapping(data.outputs_to_state);
  if (outputs) {
    const mapped: Record<string, { source?: string; handler?: string }> = {};
    for (const [stateKey, raw] of Object.entries(outputs)) {
      const config = asMapping(raw) ?? {};
      const handler = typeof config.handler === "string" ? handlers.name(config.handler, [...path, "outputs_to_state", stateKey, "handler"], "merge").name : undefined;
      setOwn(mapped, stateKey, { ...(typeof config.source === "string" && { source: config.source }), ...(handler && { handler }) });
    }
    settings.outputsToState = mapped;
  }
  const toString = asMapping(data.outputs_to_string);
  if (toString) {
    if (!("source" in toString || "handler" in toString || "raw_result" in toString)) {
      context.todo([...path, "outputs_to_string"], "setting", `outputs_to_string with several outputs (${Object.keys(toString).join(", ")}) has no toolwright form: write one outputsToString handler that formats them together.`);
    } else {
      const handler = typeof toString.handler === "string" ? handlers.name(toString.handler, [...path, "outputs_to_string", "handler"], "string").name : undefined;
      settings.outputsToString = { ...(typeof toString.source === "string" && { source: toString.source }), ...(handler && { handler }), ...(toString.raw_result === true && { rawResult: true }) };
    }
  }
  return settings;
}
