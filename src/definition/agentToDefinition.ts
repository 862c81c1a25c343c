import type { AgentOptions } from "../agent/agentTypes";
import type { OutputSchema } from "../agent/finalOutput";
import { DefinitionError } from "../errors";
import { escapeTemplateText, isPromptTemplate } from "../prompt/promptTemplate";
import type { StateSchema } from "../state/stateSchema";
import type { ZodSchema } from "../state/zodIntrospection";
import type { AgentDefinition } from "./agentDefinition";
import type { AgentToJSONOptions } from "./agentDefinitionOptions";
import { chatGeneratorToDefinition } from "./chatGeneratorDefinition";
import { strategiesToDefinition } from "./confirmationDefinition";
import { jsonSchemaOfState, stateSchemaToDefinition } from "./stateDefinition";
import { toolReferencesOf } from "./toolReferences";

export type { AgentToJSONOptions };

/**
 * An Agent's options as a definition. Only what the options give is written (defaults stay
 * defaults); run-time wiring (hooks, middleware, tracing, streaming callback) is not part of a
 * definition (an Agent read from one keeps and writes back its own `guardrails`, `budget` and `compaction`).
 * Throws `DefinitionError` at the first part with no data form, naming the fix.
 */
export function agentToDefinition(options: AgentOptions<StateSchema, string, OutputSchema | undefined>, toJSON: AgentToJSONOptions): AgentDefinition {
  const registry = toJSON.registry ?? {};
  const definition: Record<string, unknown> = { version: 1 };
  if (options.name !== undefined) definition.name = options.name;
  definition.chatGenerator = chatGeneratorToDefinition(options.chatGenerator, registry);
  if (options.tools !== undefined && options.tools.length > 0) definition.tools = toolReferencesOf(options.tools, registry);
  if (options.systemPrompt !== undefined) definition.systemPrompt = promptSource(options.systemPrompt, "systemPrompt");
  if (options.userPrompt !== undefined) definition.userPrompt = promptSource(options.userPrompt, "userPrompt");
  if (options.stateSchema !== undefined) definition.stateSchema = stateSchemaToDefinition(options.stateSchema, registry);
  if (options.outputSchema !== undefined) definition.outputSchema = jsonSchemaOfState(options.outputSchema as unknown as ZodSchema, ["outputSchema"]);
  if (options.exitConditions !== undefined) definition.exitConditions = [...options.exitConditions];
  for (const key of ["maxAgentSteps", "maxOutputRetries", "toolConcurrency", "toolTimeoutMs", "maxToolResultChars", "raiseOnToolInvocationFailure"] as const) {
    if (options[key] !== undefined) definition[key] = options[key];
  }
  if (options.confirmationStrategies !== undefined) definition.confirmationStrategies = strategiesToDefinition(options.confirmationStrategies, registry);
  if (options.snapshotKey !== undefined) {
    if (toJSON.snapshotKeyEnv === undefined) {
      throw new DefinitionError(["snapshotKey"], 'is a secret, which a definition never holds: pass toJSON({ snapshotKeyEnv: "SNAPSHOT_KEY" }) to name the environment variable the rebuilt Agent reads it from.');
    }
    definition.snapshotKey = { env: toJSON.snapshotKeyEnv };
  }
  return definition as unknown as AgentDefinition;
}

// A prompt as a template: a template's source, a literal string escaped so it renders as itself.
function promptSource(prompt: unknown, name: "systemPrompt" | "userPrompt"): string {
  if (isPromptTemplate(prompt)) return prompt.source;
  if (typeof prompt === "string") return escapeTemplateText(prompt);
  throw new DefinitionError([name], `is a function, which has no data form; write it as a template, promptTemplate("You help {{ customer.name }}."), which reads the same state.`);
}
