import type { StateKeyDefinition } from "../definition/agentDefinition";
import { setOwn } from "../util/ownProperty";
import type { HandlerNames } from "./handlerNames";
import { haystackTypeToJsonSchema } from "./haystackType";
import { asMapping, type ImportContext, type YamlPath } from "./importContext";

/**
 * A Haystack `state_schema` (`{ key: { type: "list[str]", handler?: "a.b.merge_lists" } }`, as
 * `_schema_to_dict` writes it) as a definition's `stateSchema`: each type as JSON Schema, each
 * handler by name. `messages` keeps only a handler that is not `merge_lists` (toolwright's
 * `messages` is always the conversation); a class type becomes an object and is hand work.
 */
export function convertStateSchema(value: unknown, path: YamlPath, context: ImportContext, handlers: HandlerNames): Record<string, StateKeyDefinition> | undefined {
  if (value === undefined || value === null) return undefined;
  const schema = asMapping(value);
  if (!schema) {
    context.problem(path, "is not a mapping: a Haystack Agent's state_schema maps each key to { type, handler? }.");
    return undefined;
  }
  const out: Record<string, StateKeyDefinition> = {};
  for (const [key, raw] of Object.entries(schema)) {
    const at = [...path, key];
    const entry = asMapping(raw);
    if (!entry || typeof entry.type !== "string") {
      context.problem(entry ? [...at, "type"] : at, "is not a type string: each state_schema key is { type: \"str\" | \"list[str]\" | …, handler? }, as Haystack's _schema_to_dict writes it.");
      continue;
    }
    const handler = typeof entry.handler === "string" ? handlers.name(entry.handler, [...at, "handler"], "merge") : undefined;
    if (key === "messages") {
      if (handler && handler.name !== "mergeLists") setOwn(out, key, { handler: handler.name });
      continue;
    }
    const type = haystackTypeToJsonSchema(entry.type);
    if (!type) {
      context.todo([...at, "type"], "setting", `State key '${key}' has type ${entry.type}, which has no JSON Schema here; it is typed as any JSON value ({}): describe it.`);
      setOwn(out, key, handler ? { type: {}, handler: handler.name } : { type: {} });
      continue;
    }
    for (const name of type.classes) {
      context.todo([...at, "type"], "setting", type.chatMessages ? `State key '${key}' holds ChatMessage objects; toolwright types it as a list of objects: keep ChatMessage values in 'messages', or describe their JSON.` : `State key '${key}' holds ${name} objects, typed here as any object: describe their fields in its JSON Schema.`);
    }
    setOwn(out, key, handler ? { type: type.schema, handler: handler.name } : { type: type.schema });
  }
  return out;
}
