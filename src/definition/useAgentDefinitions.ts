import { attachAgentDefinitions } from "../agent/agentDefinitions";
import { agentFromDefinition } from "./agentFromDefinition";
import { agentToDefinition } from "./agentToDefinition";

/** Lets `Agent.fromJSON` and `agent.toJSON` read and write definitions (called by the package's entries). */
export function useAgentDefinitions(): void {
  attachAgentDefinitions({ fromDefinition: agentFromDefinition, toDefinition: agentToDefinition });
}
