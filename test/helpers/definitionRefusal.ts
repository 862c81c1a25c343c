import { Agent, type AgentFromJSONOptions, DefinitionError } from "toolwright";

/** The DefinitionError `Agent.fromJSON` throws for `data`, as { path, message }; any other outcome fails the test. */
export function definitionRefusal(data: unknown, options: AgentFromJSONOptions = {}): { path: readonly (string | number)[]; message: string } {
  try {
    Agent.fromJSON(data, options);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return { path: error.path, message: error.message };
  }
  throw new Error("expected a DefinitionError, but the definition was accepted");
}
