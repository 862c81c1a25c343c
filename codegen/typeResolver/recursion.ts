import type { Type } from "ts-morph";
import type { ResolveContext, SchemaNode } from "./context";

/**
 * Resolves a type that may contain itself (an object type, or a union such as
 * `type Json = Leaf | { items: Json[] }`). Met again while it is being resolved, the type becomes a
 * `$ref`; its schema then goes into `$defs` under its name and the outer use refers to it too.
 */
export function resolveRecursive(type: Type, ctx: ResolveContext, build: () => SchemaNode | undefined): SchemaNode | undefined {
  const onStack = ctx.stack.find((entry) => entry.type === type);
  if (onStack) {
    onStack.defName ??= defName(type, ctx);
    return { $ref: `#/$defs/${onStack.defName}` };
  }
  const frame: { type: Type; defName?: string } = { type };
  ctx.stack.push(frame);
  try {
    const schema = build();
    if (!schema || !frame.defName) return schema;
    ctx.defs.set(frame.defName, schema);
    return { $ref: `#/$defs/${frame.defName}` };
  } finally {
    ctx.stack.pop();
  }
}

function defName(type: Type, ctx: ResolveContext): string {
  const existing = ctx.defNames.get(type);
  if (existing) return existing;
  const base = (type.getAliasSymbol()?.getName() ?? type.getSymbol()?.getName() ?? "Type").replace(/[^A-Za-z0-9_]/g, "_").replace(/^__type$/, "Type");
  let name = base;
  for (let n = 2; [...ctx.defNames.values()].includes(name); n++) name = `${base}${n}`;
  ctx.defNames.set(type, name);
  return name;
}
