import type { Type, TypeNode } from "ts-morph";
import { reportNode, type ResolveContext, type SchemaNode } from "./context";
import { resolveType } from "./resolveType";

const asTypes = ["integer", "number", "string", "boolean", "object", "array", "any"];

/**
 * Applies a JSDoc `@asType` override: `integer` turns the number in the resolved type into
 * `integer` (`number | null` → `["integer", "null"]`, `number[]` items too); `any` accepts any JSON
 * value (the escape hatch for `unknown`); the others give that JSON type.
 */
export function applyAsType(asType: string, type: Type, path: string, ctx: ResolveContext, typeNode?: TypeNode): SchemaNode | undefined {
  if (!asTypes.includes(asType)) {
    ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} has @asType '${asType}', which is not one of ${asTypes.join(", ")}.`);
    return undefined;
  }
  if (asType === "any") return {};
  if (asType !== "integer") return { type: asType };
  const resolved = resolveType(type, path, ctx, typeNode);
  return resolved && toInteger(resolved);
}

function toInteger(schema: SchemaNode): SchemaNode {
  const copy: SchemaNode = { ...schema };
  if (copy.type === "number") copy.type = "integer";
  else if (Array.isArray(copy.type)) copy.type = copy.type.map((t) => (t === "number" ? "integer" : t));
  if (copy.items && typeof copy.items === "object") copy.items = toInteger(copy.items as SchemaNode);
  if (copy.anyOf) copy.anyOf = copy.anyOf.map((b) => toInteger(b as SchemaNode));
  return copy;
}
