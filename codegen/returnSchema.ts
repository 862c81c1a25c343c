import { Node, ts, type Type } from "ts-morph";
import type { JsonSchema } from "../src/tools/jsonSchema";
import { Diagnostics } from "./diagnostics";
import type { DiscoveredTool } from "./discoverTools";
import type { ToolwrightSymbols } from "./toolwrightSymbols";
import { setOwn } from "../src/util/ownProperty";
import type { ResolveContext, SchemaNode } from "./typeResolver/context";
import { jsDocInfo } from "./typeResolver/jsDocTags";
import { resolveType, withNull } from "./typeResolver/resolveType";

/**
 * The JSON Schema of what a tool returns, from its declared return type: `Promise<T>` is `T`;
 * `undefined` in a union becomes `null` (what the result's JSON form holds); the JSDoc `@returns`
 * text is its description. Objects are open (no `additionalProperties: false`): TypeScript lets a
 * method return an object with more properties than its type names. Undefined for `void`, `never`,
 * `any`, `unknown` and types with no JSON form — an output schema is a description for clients, so
 * a return type without one is no error.
 */
export function returnSchema(tool: DiscoveredTool, symbols: ToolwrightSymbols): JsonSchema | undefined {
  const type = awaitedType(tool.signature.getReturnType());
  if (type.isAny() || type.isUnknown() || isNothing(type)) return undefined;
  const members = type.isUnion() ? type.getUnionTypes() : [type];
  if (members.every(isNothing)) return undefined;
  const silent = new Diagnostics("/");
  const ctx: ResolveContext = { diagnostics: silent, toolwright: symbols, anchor: tool.signature, defs: new Map(), stack: [], defNames: new Map() };
  const resolved = resolveType(type, "(return)", ctx, tool.signature.getReturnTypeNode());
  if (!resolved || silent.count > 0) return undefined;
  let schema: SchemaNode = members.some(isNothing) && !members.some((t) => t.isNull()) ? withNull(resolved) : resolved;
  const returns = returnsDoc(tool.docNode);
  if (returns) schema = { ...schema, description: returns };
  if (ctx.defs.size > 0) schema = { ...schema, $defs: Object.fromEntries([...ctx.defs].sort(([a], [b]) => a.localeCompare(b))) };
  return opened(schema) as JsonSchema;
}

/** The type a promise resolves to (through nested promises), or the type itself. */
export function awaitedType(type: Type): Type {
  const symbol = type.getSymbol();
  if (symbol?.getName() === "Promise") return awaitedType(type.getTypeArguments()[0] ?? type);
  return type;
}

function isNothing(type: Type): boolean {
  return type.isUndefined() || type.isVoid() || (type.getFlags() & ts.TypeFlags.Never) !== 0;
}

// The `@returns` (or `@return`) text of the tool's JSDoc, lines joined as for `@param`.
function returnsDoc(node: Node): string | undefined {
  if (!Node.isJSDocable(node)) return undefined;
  const tag = node.getJsDocs().at(-1)?.getTags().find((t) => t.getTagName() === "returns" || t.getTagName() === "return");
  const text = tag?.getCommentText()?.replace(/^\s*-\s*/, "");
  return jsDocInfo(text, []).description?.replace(/\s*\n\s*/g, " ");
}

// A copy without `additionalProperties: false`, and without Date markers (symbol keys: an output is never revived).
function opened(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(opened);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node)) {
    if (child === undefined || (key === "additionalProperties" && child === false)) continue;
    setOwn(out, key, opened(child));
  }
  return out;
}
