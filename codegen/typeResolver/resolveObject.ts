import { Node, type Symbol as MorphSymbol, type Type, type TypeNode } from "ts-morph";
import { type ResolveContext, type SchemaNode } from "./context";
import { propertyJsDoc, withJsDoc } from "./jsDocTags";
import { applyAsType } from "./asType";
import { isLibType, resolveType } from "./resolveType";

const noJsonForm = ["Map", "Set", "WeakMap", "WeakSet", "Promise", "RegExp", "Error", "ArrayBuffer", "Uint8Array", "Function", "Symbol"];

/**
 * Object types: interfaces, type literals, classes (public data properties), generic
 * instantiations and mapped types (`Pick`, `Omit`, `Partial`), `Record<string, T>` and index
 * signatures (`additionalProperties: T`). A type met again while it is being resolved becomes a
 * `$ref` into `$defs`.
 */
export function resolveObject(type: Type, path: string, ctx: ResolveContext): SchemaNode | undefined {
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
    ctx.diagnostics.at(ctx.anchor, "TW301", `${path} is a function, which the model cannot send; take the data the function would compute instead.`);
    return undefined;
  }
  const libName = noJsonForm.find((name) => isLibType(type, name));
  if (libName) {
    ctx.diagnostics.at(ctx.anchor, "TW301", `${path} is a ${libName}, which has no JSON form; use an array or an object instead.`);
    return undefined;
  }
  const onStack = ctx.stack.find((entry) => entry.type === type);
  if (onStack) {
    onStack.defName ??= defName(type, ctx);
    return { $ref: `#/$defs/${onStack.defName}` };
  }
  const frame: { type: Type; defName?: string } = { type };
  ctx.stack.push(frame);
  try {
    const schema = objectSchema(type, path, ctx);
    if (!schema || !frame.defName) return schema;
    ctx.defs.set(frame.defName, schema);
    return { $ref: `#/$defs/${frame.defName}` };
  } finally {
    ctx.stack.pop();
  }
}

function objectSchema(type: Type, path: string, ctx: ResolveContext): SchemaNode | undefined {
  const properties: Record<string, SchemaNode> = {};
  const required: string[] = [];
  let failed = false;
  for (const property of type.getProperties()) {
    const name = property.getName();
    const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
    if (!isDataProperty(declaration, name)) continue;
    const propertyPath = `${path}.${name}`;
    const propertyType = property.getTypeAtLocation(ctx.anchor);
    const info = propertyJsDoc(property);
    const resolved = info.asType
      ? applyAsType(info.asType, propertyType, propertyPath, ctx, typeNodeOf(declaration))
      : resolveType(propertyType, propertyPath, ctx, typeNodeOf(declaration));
    if (!resolved) {
      failed = true;
      continue;
    }
    properties[name] = withJsDoc(resolved, info);
    if (!isOptional(property)) required.push(name);
  }
  const indexType = type.getStringIndexType() ?? type.getNumberIndexType();
  let additionalProperties: SchemaNode | false = false;
  if (indexType) {
    const values = resolveType(indexType, `${path}[key]`, ctx);
    if (!values) return undefined;
    additionalProperties = values;
  }
  if (failed) return undefined;
  const schema: SchemaNode = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = additionalProperties;
  return schema;
}

// Data the model can send: not methods, accessors, private/protected/#private class members.
function isDataProperty(declaration: Node | undefined, name: string): boolean {
  if (name.startsWith("#") || name.startsWith("__@")) return false;
  if (!declaration) return true;
  if (Node.isMethodDeclaration(declaration) || Node.isMethodSignature(declaration)) return false;
  if (Node.isGetAccessorDeclaration(declaration) || Node.isSetAccessorDeclaration(declaration)) return false;
  if (Node.isModifierable(declaration) && (declaration.hasModifier("private") || declaration.hasModifier("protected") || declaration.hasModifier("static"))) return false;
  return true;
}

function isOptional(property: MorphSymbol): boolean {
  return property.isOptional();
}

function typeNodeOf(declaration: Node | undefined): TypeNode | undefined {
  if (declaration && (Node.isPropertySignature(declaration) || Node.isPropertyDeclaration(declaration))) return declaration.getTypeNode();
  return undefined;
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
