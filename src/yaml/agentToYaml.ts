import type { Agent } from "../agent/agent";
import type { AgentToJSONOptions } from "../definition/agentToDefinition";
import { definitionToYaml } from "./writeYaml";

/**
 * An Agent's definition as YAML (`agent.toJSON(options)` written in block style, prompts as block
 * scalars): what `loadAgent` reads back into an Agent that runs the same.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Agent, whatever its state, exit conditions and output
export function agentToYaml(agent: Agent<any, any, any>, options?: AgentToJSONOptions): string {
  return definitionToYaml(agent.toJSON(options));
}
