import type { AgentDefinition } from "../definition/agentDefinition";
import type { AgentFromJSONOptions, AgentToJSONOptions, DefinedAgent } from "../definition/agentDefinitionOptions";
import { ConfigurationError } from "../errors";
import type { StateSchema } from "../state/stateSchema";
import type { AgentOptions } from "./agentTypes";
import type { OutputSchema } from "./finalOutput";

/** How `Agent.fromJSON` and `agent.toJSON` read and write definitions: the definition module's two functions. */
export interface AgentDefinitions {
  /** Reads an untrusted definition into Agent options; every problem is a `DefinitionError` at its place. */
  fromDefinition(data: unknown, options: AgentFromJSONOptions): DefinedAgent;
  /** Writes an Agent's options as a definition. */
  toDefinition(options: AgentOptions<StateSchema, string, OutputSchema | undefined>, toJSON: AgentToJSONOptions): AgentDefinition;
}

// Filled by the package's entries (`toolwright`, `toolwright/yaml`): agents as data live at the
// edge, so the Agent loads neither the definition format nor the template engine.
let attached: AgentDefinitions | undefined;

/** Gives `Agent.fromJSON` and `agent.toJSON` the definition module. */
export function attachAgentDefinitions(definitions: AgentDefinitions): void {
  attached = definitions;
}

/** The definition module, once an entry attached it. */
export function agentDefinitions(subject: "Agent.fromJSON" | "Agent.toJSON"): AgentDefinitions {
  if (attached === undefined) {
    throw new ConfigurationError(subject, `${subject} needs the agent definition module, which the toolwright entry attaches; import Agent from "toolwright" (or loadAgent from "toolwright/yaml").`);
  }
  return attached;
}
