import type { JsonSchema } from "../tools/jsonSchema";
import { zod } from "../util/lazyZod";
import { definitionSchema } from "./definitionSchema";

/** Where the published schema says it lives (its `$id`), and what `agent.toJSON()` is checked against in tests. */
export const definitionSchemaId = "https://unpkg.com/toolwright/agent-definition.schema.json";

/**
 * The JSON Schema of the definition format (draft 2020-12), as published in the package
 * (`toolwright/agent-definition.schema.json`, written by `npm run schema`): point an editor at it,
 * e.g. with `# yaml-language-server: $schema=./node_modules/toolwright/agent-definition.schema.json`.
 */
export function definitionJsonSchema(): JsonSchema {
  const schema = zod().toJSONSchema(definitionSchema().agent, { target: "draft-2020-12", io: "input" }) as JsonSchema & { $schema?: string };
  const { $schema, ...rest } = schema;
  return { $schema, $id: definitionSchemaId, ...rest } as JsonSchema;
}
