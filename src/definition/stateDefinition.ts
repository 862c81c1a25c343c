import type { z } from "zod";
import { ConfigurationError, DefinitionError } from "../errors";
import { describeKind } from "../util/describeValue";
import { mergeLists, type MergeHandler, replaceValues } from "../state/mergeHandlers";
import { chatMessageSchemaOf, type StateSchema } from "../state/stateSchema";
import { isZodArray, type ZodSchema } from "../state/zodIntrospection";
import { compileJsonSchema } from "../tools/argumentValidator";
import { UnsupportedPatternError } from "../tools/linearPattern";
import type { JsonSchema } from "../tools/jsonSchema";
import { canonicalJson } from "../util/canonicalJson";
import { zod } from "../util/lazyZod";
import { setOwn } from "../util/ownProperty";
import type { StateKeyDefinition } from "./agentDefinition";
import { type AgentRegistry, nameOf, registered, registeredNames } from "./agentRegistry";
import { linearZodType } from "./linearZodType";
import { findRecursiveReference } from "./recursiveReference";

/** The merge handlers every definition may name. */
export const builtInHandlers: ReadonlyMap<string, MergeHandler> = new Map<string, MergeHandler>([
  ["mergeLists", mergeLists],
  ["replaceValues", replaceValues],
]);

/**
 * A state schema from its definition: each JSON Schema type becomes a zod type (zod's
 * `fromJSONSchema`, after the JSON Schema meta-schema check), each handler name the registered
 * function. With `typed` (the app's own zod schema), the definition must describe the same keys and
 * types, and the app's zod types are used, so the Agent's state is typed in code.
 */
export function stateSchemaFromDefinition(definition: Readonly<Record<string, StateKeyDefinition>> | undefined, registry: AgentRegistry, typed: StateSchema | undefined): StateSchema | undefined {
  if (definition === undefined && typed === undefined) return undefined;
  const schema: StateSchema = {};
  for (const [key, entry] of Object.entries(definition ?? {})) {
    const path = ["stateSchema", key];
    const handler = entry.handler === undefined ? undefined : handlerNamed(entry.handler, registry, [...path, "handler"]);
    if (key === "messages") {
      if (entry.type !== undefined) throw new DefinitionError([...path, "type"], "is not allowed: 'messages' always holds the conversation (a list of ChatMessage); give it only a handler, or leave it out.");
      if (handler) setOwn(schema, key, { type: typed?.messages?.type ?? zod().array(chatMessageSchemaOf()), handler });
      continue;
    }
    if (entry.type === undefined) throw new DefinitionError([...path, "type"], "is missing: every state key needs a JSON Schema type, e.g. { type: string } or { type: array, items: { type: string } }.");
    const type = typed ? typedKey(typed, key, entry.type, path) : zodTypeOf(entry.type, [...path, "type"]);
    if (typed && effectiveHandler(handler, type) !== effectiveHandler(typed[key]!.handler, type)) {
      throw new DefinitionError([...path, "handler"], `differs from the handler of '${key}' in the stateSchema given to fromJSON; name the same function (register it in registry.handlers), or change the code's schema.`);
    }
    setOwn(schema, key, handler ? { type, handler } : { type });
  }
  if (typed) {
    for (const key of Object.keys(typed)) {
      if (key !== "messages" && !Object.hasOwn(definition ?? {}, key)) {
        throw new DefinitionError(["stateSchema"], `has no key '${key}', which the stateSchema given to fromJSON declares; add it to the definition, or remove it from the code's schema.`);
      }
    }
  }
  return schema;
}

function effectiveHandler(handler: MergeHandler | undefined, type: ZodSchema): MergeHandler {
  return handler ?? (isZodArray(type) ? mergeLists : replaceValues);
}

function typedKey(typed: StateSchema, key: string, type: JsonSchema, path: (string | number)[]): ZodSchema {
  const own = Object.hasOwn(typed, key) ? typed[key] : undefined;
  if (!own) throw new DefinitionError(path, `is not a key of the stateSchema given to fromJSON; remove it from the definition, or declare it in the code's schema. Keys there: ${Object.keys(typed).join(", ") || "none"}.`);
  zodTypeOf(type, [...path, "type"]);
  const expected = jsonSchemaOfState(own.type as ZodSchema, [...path, "type"]);
  if (canonicalJson(expected) !== canonicalJson(withoutDialect(type))) {
    throw new DefinitionError(
      [...path, "type"],
      `differs from the type of '${key}' in the stateSchema given to fromJSON: the definition has ${JSON.stringify(withoutDialect(type))}, the code has ${JSON.stringify(expected)}; make them the same (agent.toJSON() writes the code's).`,
    );
  }
  return own.type as ZodSchema;
}

/**
 * A state key's JSON Schema as a zod type, its patterns matched in linear time; an invalid schema,
 * a pattern RE2 cannot run or a schema that refers to itself is a DefinitionError at `path`.
 */
export function zodTypeOf(type: JsonSchema, path: (string | number)[]): ZodSchema {
  try {
    compileJsonSchema(type, "user");
  } catch (error) {
    if (error instanceof UnsupportedPatternError) {
      throw new DefinitionError([...path, ...error.schemaPath], `is ${JSON.stringify(error.pattern)}, a pattern that cannot be matched in linear time (${error.detail}): the patterns of a definition run on RE2 so that no input can stall the process; rewrite it without lookaround or backreferences.`, { cause: error });
    }
    throw new DefinitionError(path, `is not a valid JSON Schema (draft 2020-12): ${(error as Error).message}.`, { cause: error });
  }
  const recursive = findRecursiveReference(type);
  if (recursive) {
    throw new DefinitionError(
      [...path, ...recursive.path],
      `is ${JSON.stringify(recursive.ref)}, a reference to a schema that contains it: a type of a definition cannot refer to itself (zod cannot check such a type, every run would fail); write the nesting out to the depth you need, or use { type: object } there.`,
    );
  }
  try {
    return linearZodType(type);
  } catch (error) {
    throw new DefinitionError(path, `is a JSON Schema zod cannot turn into a type: ${(error as Error).message}; use the JSON Schema keywords of plain data (type, properties, items, enum, …).`, { cause: error });
  }
}

function handlerNamed(name: string, registry: AgentRegistry, path: (string | number)[]): MergeHandler {
  const own = registered(registry, "handlers", name);
  if (own !== undefined && typeof own !== "function") throw new ConfigurationError("registry", `registry.handlers.${name} must be a function, got ${describeKind(own)}.`);
  const handler = own ?? builtInHandlers.get(name);
  if (typeof handler === "function") return handler as MergeHandler;
  const known = [...builtInHandlers.keys(), ...registeredNames(registry, "handlers")];
  throw new DefinitionError(path, `names handler '${name}', which is neither built in nor in registry.handlers; register the function (registry.handlers.${/^[A-Za-z_$][\w$]*$/.test(name) ? name : "<name>"}) or use one of: ${known.join(", ")}.`);
}

/** A merge or output handler by name, for tool settings. */
export { handlerNamed };

/** A state schema as data: each zod type's JSON Schema, each handler's registered name. */
export function stateSchemaToDefinition(schema: StateSchema, registry: AgentRegistry): Record<string, StateKeyDefinition> {
  const out: Record<string, StateKeyDefinition> = {};
  for (const [key, entry] of Object.entries(schema)) {
    const path = ["stateSchema", key];
    const handler = entry.handler === undefined ? undefined : handlerName(entry.handler, registry, [...path, "handler"]);
    if (key === "messages") {
      if (handler !== undefined) setOwn(out, key, { handler });
      continue;
    }
    const type = jsonSchemaOfState(entry.type as ZodSchema, [...path, "type"]);
    // The default handler is left out, so the definition reads as the code does.
    const isDefault = handler === (isZodArray(entry.type as ZodSchema) ? "mergeLists" : "replaceValues");
    setOwn(out, key, handler !== undefined && !isDefault ? { type, handler } : { type });
  }
  return out;
}

/** The registered name of a handler function (built-in or registry.handlers), or a DefinitionError. */
export function handlerName(handler: unknown, registry: AgentRegistry, path: (string | number)[]): string {
  for (const [name, builtIn] of builtInHandlers) if (builtIn === handler) return name;
  const name = nameOf(registry, "handlers", handler);
  if (name !== undefined) return name;
  const label = typeof handler === "function" && handler.name ? `function '${handler.name}'` : "an anonymous function";
  throw new DefinitionError(path, `is ${label}, which has no name a definition can use: register it (registry.handlers) and pass the registry to toJSON({ registry }).`);
}

/** A zod type's JSON Schema (its output form, without `$schema`); a type with none is a DefinitionError. */
export function jsonSchemaOfState(type: ZodSchema, path: (string | number)[]): JsonSchema {
  try {
    return withoutDialect(zod().toJSONSchema(type, { io: "output", unrepresentable: "throw" }) as JsonSchema);
  } catch (error) {
    throw new DefinitionError(path, `has no JSON Schema form (${(error as Error).message}); a definition holds types as JSON Schema, so use a type of plain data (a Date as z.iso.datetime(), a Map as z.record(...)).`, { cause: error });
  }
}

function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema as JsonSchema & { $schema?: unknown };
  return rest;
}
