import { ConfigurationError, DefinitionError } from "../errors";
import { setSubRun, Tool, toolInternals } from "../tools/tool";
import type { OutputsToState, OutputsToString } from "../tools/toolOutputs";
import type { ToolSettings } from "./agentDefinition";
import type { AgentRegistry } from "./agentRegistry";
import { handlerNamed } from "./stateDefinition";

/**
 * The tool made again with a definition's settings (description, inputsFromState, outputsToState,
 * outputsToString), each replacing the tool's own; the tool itself when there are none. A
 * parameter the code fills from state stays hidden from the model: the new `inputsFromState` must
 * fill it too. `path` is where the settings are, for errors.
 */
export function toolVariant(tool: Tool, settings: ToolSettings, registry: AgentRegistry, path: readonly (string | number)[]): Tool {
  const { description, inputsFromState, outputsToState, outputsToString } = settings;
  if (description === undefined && inputsFromState === undefined && outputsToState === undefined && outputsToString === undefined) return tool;
  if (inputsFromState !== undefined) keepHidden(tool, inputsFromState, [...path, "inputsFromState"]);
  const options = toolInternals(tool).options;
  try {
    return carryAgentTool(tool, new Tool({
      ...options,
      ...(description !== undefined && { description }),
      ...(inputsFromState !== undefined && { inputsFromState: { ...inputsFromState } }),
      ...(outputsToState !== undefined && { outputsToState: outputsOf(outputsToState, registry, [...path, "outputsToState"]) }),
      ...(outputsToString !== undefined && { outputsToString: stringOf(outputsToString, registry, [...path, "outputsToString"]) }),
    }));
  } catch (error) {
    if (!(error instanceof ConfigurationError) || error instanceof DefinitionError) throw error;
    // The Tool's own checks (a parameter that does not exist): the message as in code, at the settings.
    const where = inputsFromState !== undefined && /fills '/.test(error.message) ? [...path, "inputsFromState"] : [...path];
    throw new DefinitionError(where, error.message, { cause: error });
  }
}

// An agent tool's variant is an agent tool too: its sub-run can pause and resume.
function carryAgentTool(original: Tool, variant: Tool): Tool {
  const { subRun } = toolInternals(original);
  if (subRun) setSubRun(variant, subRun);
  return variant;
}

function keepHidden(tool: Tool, mapping: Readonly<Record<string, string>>, path: (string | number)[]): void {
  const filled = new Set(Object.values(mapping));
  for (const [key, parameter] of Object.entries(tool.inputsFromState)) {
    if (!filled.has(parameter)) {
      throw new DefinitionError(
        path,
        `leaves parameter '${parameter}' of tool '${tool.name}' unfilled, which the code fills from state key '${key}' and hides from the model; a definition cannot show the model a hidden parameter, so map a state key to it (${key}: ${parameter}).`,
      );
    }
  }
}

function outputsOf(settings: NonNullable<ToolSettings["outputsToState"]>, registry: AgentRegistry, path: (string | number)[]): OutputsToState {
  const out: OutputsToState = {};
  for (const [key, { source, handler }] of Object.entries(settings)) {
    Object.defineProperty(out, key, {
      value: { ...(source !== undefined && { source }), ...(handler !== undefined && { handler: handlerNamed(handler, registry, [...path, key, "handler"]) }) },
      enumerable: true,
    });
  }
  return out;
}

function stringOf(settings: NonNullable<ToolSettings["outputsToString"]>, registry: AgentRegistry, path: (string | number)[]): OutputsToString {
  const { source, handler, rawResult } = settings;
  return {
    ...(source !== undefined && { source }),
    ...(rawResult !== undefined && { rawResult }),
    ...(handler !== undefined && { handler: handlerNamed(handler, registry, [...path, "handler"]) as (value: unknown) => unknown }),
  };
}
