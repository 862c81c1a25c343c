import { ConfigurationError, DefinitionError, PromptTemplateError } from "../errors";
import type { AgentOptions } from "../agent/agentTypes";
import { findUnknownExitCondition, unknownExitConditionReason } from "../agent/agentOptions";
import type { OutputSchema } from "../agent/finalOutput";
import { checkReservedKeys } from "../agent/validateAgentOptions";
import { type PromptTemplate, promptTemplate } from "../prompt/promptTemplate";
import { normalizeStateSchema, type NormalizedStateKey, type StateSchema } from "../state/stateSchema";
import { zodDef } from "../state/zodIntrospection";
import { checkMiddleware } from "../run/checkMiddleware";
import { resolveTools } from "../tools/resolveTools";
import { findShapeProblem } from "../util/jsonShape";
import { limits } from "../util/limits";
import type { AgentDefinition } from "./agentDefinition";
import type { AgentFromJSONOptions, DefinedAgent } from "./agentDefinitionOptions";
import { checkRegistry } from "./agentRegistry";
import { chatGeneratorFromDefinition, checkEnv, type DefinitionTrust } from "./chatGeneratorDefinition";
import { describeKind } from "../util/describeValue";
import { strategiesFromDefinition } from "./confirmationDefinition";
import { middlewareFromDefinition } from "./middlewareDefinition";
import { readDefinition } from "./readDefinition";
import { stateSchemaFromDefinition, zodTypeOf } from "./stateDefinition";
import { resolveToolReferences } from "./toolReferences";

export type { AgentFromJSONOptions, DefinedAgent };

/**
 * Reads an untrusted definition into Agent options: the format is checked, every name resolved
 * against the registry and the generated modules, every tool setting, state key, exit condition
 * and strategy checked as `new Agent` checks them, with errors at their place in the definition.
 */
export function agentFromDefinition(data: unknown, options: AgentFromJSONOptions): DefinedAgent {
  const shape = findShapeProblem(data, { maxDepth: limits.maxDefinitionDepth, refuseProtoKeys: true });
  if (shape) {
    const path = shape.path.filter((segment): segment is string | number => typeof segment !== "symbol");
    throw new DefinitionError(path, shape.kind === "depth" ? `nests deeper than ${limits.maxDefinitionDepth} levels, the limit of a definition.` : "is a '__proto__' key, which a definition may not have.");
  }
  const definition = readDefinition(data);
  const registry = checkRegistry(options.registry);
  const trust: DefinitionTrust = { allowedEnv: checkNames(options.allowedEnv, "allowedEnv") ?? ["OPENAI_API_KEY"], allowedBaseURLs: checkNames(options.allowedBaseURLs, "allowedBaseURLs") ?? [] };
  const stateSchema = stateSchemaFromDefinition(definition.stateSchema, registry, options.stateSchema);
  const stateKeys = stateKeysOf(stateSchema);
  const tools = resolveToolReferences(definition.tools ?? [], registry, stateKeys);
  const toolNames = toolNamesOf(tools);
  const unknownCondition = findUnknownExitCondition(definition.exitConditions ?? [], toolNames);
  if (unknownCondition) throw new DefinitionError(["exitConditions", unknownCondition.index], unknownExitConditionReason(String(unknownCondition.condition), toolNames));
  // A replaced generator is still checked: a definition that names a bad one is refused everywhere.
  if (options.chatGenerator !== undefined) chatGeneratorFromDefinition(definition.chatGenerator, registry, trust, false);
  const definedMiddleware = middlewareFromDefinition(definition, toolNames);
  // The code's middleware is checked here, so that a fault in it is not reported against the definition.
  const middleware = [...definedMiddleware, ...checkMiddleware(options.middleware, "Agent", definedMiddleware)];
  const agentOptions: AgentOptions<StateSchema, string, OutputSchema | undefined> = {
    chatGenerator: options.chatGenerator ?? chatGeneratorFromDefinition(definition.chatGenerator, registry, trust),
    tools,
    ...(stateSchema !== undefined && { stateSchema }),
    ...(definition.name !== undefined && { name: definition.name }),
    ...(definition.systemPrompt !== undefined && { systemPrompt: templateOf(definition.systemPrompt, "systemPrompt") }),
    ...(definition.userPrompt !== undefined && { userPrompt: templateOf(definition.userPrompt, "userPrompt") }),
    ...(definition.outputSchema !== undefined && { outputSchema: outputSchemaOf(definition.outputSchema) }),
    ...(definition.exitConditions !== undefined && { exitConditions: definition.exitConditions }),
    ...(definition.maxAgentSteps !== undefined && { maxAgentSteps: definition.maxAgentSteps }),
    ...(definition.maxOutputRetries !== undefined && { maxOutputRetries: definition.maxOutputRetries }),
    ...(definition.toolConcurrency !== undefined && { toolConcurrency: definition.toolConcurrency }),
    ...(definition.toolTimeoutMs !== undefined && { toolTimeoutMs: definition.toolTimeoutMs }),
    ...(definition.maxToolResultChars !== undefined && { maxToolResultChars: definition.maxToolResultChars }),
    ...(definition.raiseOnToolInvocationFailure !== undefined && { raiseOnToolInvocationFailure: definition.raiseOnToolInvocationFailure }),
    ...(definition.confirmationStrategies !== undefined && { confirmationStrategies: strategiesFromDefinition(definition.confirmationStrategies, registry, toolNames) }),
    ...(definition.snapshotKey !== undefined && { snapshotKey: secretFromEnv(definition.snapshotKey.env, ["snapshotKey", "env"], trust) }),
    ...(middleware.length > 0 && { middleware }),
    ...(options.hooks !== undefined && { hooks: options.hooks }),
    ...(options.tracing !== undefined && { tracing: options.tracing }),
    ...(options.streamingCallback !== undefined && { streamingCallback: options.streamingCallback }),
  };
  return { options: agentOptions, definition };
}

function checkNames(value: unknown, option: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new ConfigurationError("Agent.fromJSON", `Agent.fromJSON has ${option} that is not an array of strings, got ${describeKind(value)}.`);
  }
  return [...value];
}

function stateKeysOf(schema: StateSchema | undefined): ReadonlyMap<string, NormalizedStateKey> {
  try {
    const keys = normalizeStateSchema(schema);
    checkReservedKeys(keys);
    return keys;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    const key = /^stateSchema\.(.+)$/.exec(error.subject)?.[1];
    throw new DefinitionError(key === undefined ? ["stateSchema"] : ["stateSchema", key], error.message, { cause: error });
  }
}

function toolNamesOf(sources: Parameters<typeof resolveTools>[0]): string[] {
  try {
    return [...resolveTools(sources, "Agent").keys()];
  } catch (error) {
    if (error instanceof ConfigurationError) throw new DefinitionError(["tools"], error.message, { cause: error });
    throw error;
  }
}

function templateOf(source: string, name: "systemPrompt" | "userPrompt"): PromptTemplate {
  try {
    return promptTemplate(source, { name });
  } catch (error) {
    if (error instanceof PromptTemplateError) throw new DefinitionError([name], error.message, { cause: error });
    throw error;
  }
}

function outputSchemaOf(schema: NonNullable<AgentDefinition["outputSchema"]>): OutputSchema {
  const type = zodTypeOf(schema, ["outputSchema"]);
  if (zodDef(type).type !== "object") throw new DefinitionError(["outputSchema"], 'must describe an object ({ type: object, properties: {...} }): the final answer is a JSON object.');
  return type as unknown as OutputSchema;
}

function secretFromEnv(name: string, path: (string | number)[], trust: DefinitionTrust): string {
  checkEnv(name, trust, path);
  const value = Object.hasOwn(process.env, name) ? process.env[name] : undefined;
  if (value === undefined || value === "") throw new DefinitionError(path, `names environment variable ${name}, which is not set; set it to the secret, or remove the setting.`);
  return value;
}
