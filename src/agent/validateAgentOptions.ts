import { ConfigurationError } from "../errors";
import type { NormalizedStateKey } from "../state/stateSchema";
import type { ZodSchema } from "../state/zodIntrospection";
import { zod } from "../util/lazyZod";
import { typeOf } from "../tools/injectedParameters";
import type { JsonSchema } from "../tools/jsonSchema";
import { type Tool, toolInternals } from "../tools/tool";
import { reservedStateKeys } from "./agentTypes";

/** Checks that the state schema does not use a name the Agent reserves for run options and results. */
export function checkReservedKeys(keys: ReadonlyMap<string, NormalizedStateKey>): void {
  for (const key of keys.keys()) {
    if (reservedStateKeys.includes(key)) {
      throw new ConfigurationError(
        `stateSchema.${key}`,
        `State key '${key}' is reserved by the Agent for run options and results; rename the key. Reserved: ${reservedStateKeys.join(", ")}.`,
      );
    }
  }
}

/** Checks that every key a tool reads or writes is in the state schema. */
export function checkToolStateKeys(tools: Iterable<Tool>, keys: ReadonlyMap<string, NormalizedStateKey>): void {
  const known = [...keys.keys()].join(", ");
  for (const tool of tools) {
    const where = tool.source ? ` (${tool.source})` : "";
    for (const [key, parameter] of Object.entries(tool.inputsFromState)) {
      const entry = keys.get(key);
      if (!entry) {
        throw new ConfigurationError(
          `Tool '${tool.name}'`,
          `Tool '${tool.name}' reads state key '${key}' through inputsFromState, but the Agent's stateSchema has no such key; add '${key}' to stateSchema or fix the key. State keys: ${known}.${where}`,
        );
      }
      const mismatch = typeMismatch(entry.type, toolInternals(tool).injected.get(parameter)?.schema);
      if (mismatch) {
        throw new ConfigurationError(
          `Tool '${tool.name}'`,
          `Tool '${tool.name}' fills parameter '${parameter}' (${mismatch.parameter}) from state key '${key}', which holds ${mismatch.state}; map a state key of the parameter's type, or change the parameter's type.${where}`,
        );
      }
    }
    for (const key of Object.keys(tool.outputsToState)) {
      if (!keys.has(key)) {
        throw new ConfigurationError(
          `Tool '${tool.name}'`,
          `Tool '${tool.name}' writes state key '${key}' through outputsToState, but the Agent's stateSchema has no such key; add '${key}' to stateSchema or fix the key. State keys: ${known}.${where}`,
        );
      }
    }
  }
}

// The JSON types a state key's zod type and a parameter's schema allow; a mismatch only when both
// are known and share none (an integer is a number).
function typeMismatch(stateType: ZodSchema, parameter: JsonSchema | undefined): { state: string; parameter: string } | undefined {
  if (!parameter) return undefined;
  let stateSchema: JsonSchema;
  try {
    stateSchema = zod().toJSONSchema(stateType, { io: "output", unrepresentable: "any" }) as JsonSchema;
  } catch {
    return undefined;
  }
  const allowed = (schema: JsonSchema) => new Set(([] as unknown[]).concat(schema.type ?? []).flatMap((t) => (t === "integer" ? ["number"] : [t])));
  const stateTypes = allowed(stateSchema);
  const parameterTypes = allowed(parameter);
  if (stateTypes.size === 0 || parameterTypes.size === 0 || [...stateTypes].some((t) => parameterTypes.has(t))) return undefined;
  return { state: typeOf(stateSchema)!, parameter: typeOf(parameter)! };
}
