/**
 * Agent definitions in YAML files. Needs the `yaml` package (an optional peer dependency).
 * @module toolwright/yaml
 */
import { registerFallbackGeneratorType } from "../chat/fallbackGeneratorType";
import { registerOpenAIGeneratorTypes } from "../chat/openai/openaiGeneratorTypes";
import { useAgentDefinitions } from "../definition/useAgentDefinitions";
import { registerScriptedGeneratorType } from "../testing/scriptedGeneratorType";
export { loadAgent, parseAgent } from "./loadAgent";
export { agentToYaml } from "./agentToYaml";
export { importHaystackAgent } from "../haystack/importHaystackAgent";
export { HaystackImportError } from "../haystack/haystackImportError";
export type { HandWorkItem, HandWorkKind, ImportHaystackOptions, ImportHaystackResult } from "../haystack/haystackImportTypes";

// As the root entry does: an app may import only toolwright/yaml to read definitions.
useAgentDefinitions();
registerOpenAIGeneratorTypes();
registerFallbackGeneratorType();
registerScriptedGeneratorType();
