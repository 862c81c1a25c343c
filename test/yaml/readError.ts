import { DefinitionError } from "../../src/errors";
import { readYamlDefinition } from "../../src/yaml/yamlDocument";

/** The DefinitionError `readYamlDefinition` throws for `text` (any other outcome fails the test). */
export function readError(text: string, file = "agent.yaml"): DefinitionError {
  try {
    readYamlDefinition(text, file);
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error(`readYamlDefinition accepted ${JSON.stringify(text.slice(0, 80))}`);
}
