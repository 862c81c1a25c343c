/**
 * A JSON Schema (draft 2020-12) object. Tool parameter schemas are objects with `properties`;
 * every other keyword is allowed and passed to the model as it is.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | boolean;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  description?: string;
  default?: unknown;
  format?: string;
  [keyword: string]: unknown;
}

/** Resolves a local `$ref` (`#/$defs/Node`) against the root schema; other schemas pass through. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) {
    const target = lookupPointer(root, current.$ref);
    if (!target) return current;
    current = target;
  }
  return current;
}

function lookupPointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== null && typeof node === "object" ? (node as JsonSchema) : undefined;
}

/** True when the schema accepts `null` (type includes "null", a null const/enum, or a null branch). */
export function allowsNull(schema: JsonSchema, root: JsonSchema): boolean {
  const s = resolveRef(schema, root);
  if (s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"))) return true;
  if (s.const === null || (Array.isArray(s.enum) && s.enum.includes(null))) return true;
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return branches.some((branch) => allowsNull(branch, root));
  return s.type === undefined && s.enum === undefined && s.const === undefined && s.anyOf === undefined && s.oneOf === undefined && s.allOf === undefined && s.$ref === undefined && s.not === undefined;
}
