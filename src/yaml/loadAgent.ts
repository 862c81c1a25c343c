import { readFile } from "node:fs/promises";
import { Agent } from "../agent/agent";
import type { OutputSchema } from "../agent/finalOutput";
import type { AgentFromJSONOptions } from "../definition/agentFromDefinition";
import { DefinitionError } from "../errors";
import type { StateSchema } from "../state/stateSchema";
import { readYamlDefinition } from "./yamlDocument";

/**
 * An Agent from a YAML (or JSON) definition file, like `Agent.fromJSON` on its data; every
 * problem is a `DefinitionError` at the file's line and column (`agent.yaml:12:7: tools[0]...`).
 *
 * @example
 * const agent = await loadAgent("agent.yaml", { registry: { classes: { SupportTools: () => new SupportTools(store) } } });
 */
export async function loadAgent<S extends StateSchema = StateSchema>(file: string, options: AgentFromJSONOptions<S> = {}): Promise<Agent<S, string, OutputSchema | undefined>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new DefinitionError([], `could not be read from ${file}: ${(error as Error).message}`, { cause: error });
  }
  return parseAgent(text, { ...options, file });
}

/** `loadAgent` for a definition's text (from a request, a database): `file` names it in errors. */
export function parseAgent<S extends StateSchema = StateSchema>(text: string, options: AgentFromJSONOptions<S> & { file?: string } = {}): Agent<S, string, OutputSchema | undefined> {
  const { file = "agent.yaml", ...fromJSON } = options;
  const yaml = readYamlDefinition(text, file);
  try {
    return Agent.fromJSON(yaml.data, fromJSON);
  } catch (error) {
    // An unknown key is pointed at itself, any other problem at its value.
    if (error instanceof DefinitionError && error.location === undefined) throw yaml.locateError(error, { key: error.reason.startsWith("is not a key of") || error.reason.startsWith("is a '__proto__' key") });
    throw error;
  }
}
