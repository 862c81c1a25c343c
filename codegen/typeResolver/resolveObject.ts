import { Node, type Symbol as MorphSymbol, ts, type Type, type TypeNode } from "ts-morph";
import { reportNode, type ResolveContext, type SchemaNode } from "./context";
import { propertyJsDoc, withJsDoc } from "./jsDocTags";
import { applyAsType } from "./asType";
import { isLibType, resolveType } from "./resolveType";
import { resolveRecursive } from "./recursion";
import { isTemplateType, templatePattern } from "./templatePattern";
import { indexValueNode } from "./typeNodes";

const noJsonForm = ["Map", "Set", "WeakMap", "WeakSet", "Promise", "RegExp", "Error", "ArrayBuffer", "Uint8Array", "Function", "Symbol"];

/**
 * Object types: interfaces, type literals, classes (public data properties), generic
 * instantiations and mapped types (`Pick`, `Omit`, `Partial`), `Record<string, T>` and index
 * signatures (`additionalProperties: T`), index signatures keyed by a template literal type
 * (`Record<`x-${string}`, T>`: `propertyNames: { pattern }`, or `patternProperties` beside declared
 * properties). A type met again while it is being resolved becomes a `$ref` into `$defs`.
 *
 * @param typeNode The annotation the type came from, when there is one (for the order of a map's values).
 */
export function resolveObject(type: Type, path: string, ctx: ResolveContext, typeNode?: TypeNode): SchemaNode | undefined {
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
    ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} is a function, which the model cannot send; take the data the function would compute instead.`);
    return undefined;
  }
  const libName = noJsonForm.find((name) => isLibType(type, name));
  if (libName) {
    ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} is a ${libName}, which has no JSON form; use an array or an object instead.`);
    return undefined;
  }
  warnIfClassWithMethods(type, path, ctx);
  return resolveRecursive(type, ctx, () => objectSchema(type, path, ctx, typeNode));
}

// TW304: arguments arrive as parsed JSON, so a parameter typed as a class gets a plain object with
// its data and none of its methods; the first call to one fails at run time, far from the cause.
function warnIfClassWithMethods(type: Type, path: string, ctx: ResolveContext): void {
  const declaration = type.getSymbol()?.getDeclarations().find((d) => Node.isClassDeclaration(d) || Node.isClassExpression(d));
  if (!declaration || !(Node.isClassDeclaration(declaration) || Node.isClassExpression(declaration))) return;
  const methods = [...declaration.getMethods(), ...declaration.getGetAccessors(), ...declaration.getSetAccessors()].filter((m) => !m.isStatic()).map((m) => m.getName());
  if (methods.length === 0) return;
  const name = declaration.getName() ?? type.getText();
  const list = [...new Set(methods)].join(", ");
  ctx.diagnostics.warnAt(
    reportNode(ctx),
    "TW304",
    `${path} is typed as the class ${name}, which has methods (${list}), but the method will receive a plain object with ${name}'s data properties and none of its methods; type it as an interface of the data, or build the ${name} from that object inside the method.`,
  );
}

function objectSchema(type: Type, path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): SchemaNode | undefined {
  const properties: Record<string, SchemaNode> = {};
  const required: string[] = [];
  let failed = false;
  for (const property of propertiesInOrder(type)) {
    const name = property.getName();
    const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
    const propertyType = property.getTypeAtLocation(ctx.anchor);
    if (!isDataProperty(declaration, name, propertyType)) continue;
    const propertyPath = `${path}.${name}`;
    const info = propertyJsDoc(property);
    // A problem inside the property's type is reported at the property itself, where it is fixed.
    const at: ResolveContext = isPropertyNode(declaration) ? { ...ctx, reportAt: declaration } : ctx;
    const resolved = info.asType
      ? applyAsType(info.asType, propertyType, propertyPath, at, typeNodeOf(declaration))
      : resolveType(propertyType, propertyPath, at, typeNodeOf(declaration));
    if (!resolved) {
      failed = true;
      continue;
    }
    properties[name] = withJsDoc(resolved, info);
    if (!isOptional(property, propertyType)) required.push(name);
  }
  const indexType = type.getStringIndexType() ?? type.getNumberIndexType();
  let additionalProperties: SchemaNode | false = false;
  if (indexType) {
    const values = resolveType(indexType, `${path}[key]`, ctx, indexValueNode(typeNode, type));
    if (!values) return undefined;
    additionalProperties = values;
  }
  const keyed = templateKeyedIndexes(type, path, ctx, typeNode);
  if (failed || keyed === null) return undefined;
  if (keyed.length > 0 && !indexType) {
    // `Record<`x-${string}`, V>`: keys must match the template, values are V.
    if (keyed.length === 1 && Object.keys(properties).length === 0) return { type: "object", propertyNames: { pattern: keyed[0]!.pattern }, additionalProperties: keyed[0]!.values };
    const schema: SchemaNode = { type: "object", properties };
    if (required.length > 0) schema.required = required;
    schema.patternProperties = Object.fromEntries(keyed.map((entry) => [entry.pattern, entry.values]));
    schema.additionalProperties = false;
    return schema;
  }
  // A pure map (`Record<string, T>`, `{ [key: string]: T }`) is described by its values alone.
  const schema: SchemaNode = indexType && Object.keys(properties).length === 0 ? { type: "object" } : { type: "object", properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = additionalProperties;
  return schema;
}

// Index signatures keyed by template literal types (`[key: `x-${string}`]: V`, or
// `Record<`x-${string}`, V>`): the pattern each one's keys match and the schema of its values.
// null when one cannot be resolved (reported), empty when there is none.
function templateKeyedIndexes(type: Type, path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): Array<{ pattern: string; values: SchemaNode }> | null {
  const checker = ctx.anchor.getProject().getTypeChecker().compilerObject;
  const entries: Array<{ pattern: string; values: SchemaNode }> = [];
  for (const info of checker.getIndexInfosOfType(type.compilerType)) {
    if (!isTemplateType(info.keyType)) continue;
    const pattern = templatePattern(info.keyType);
    const valueType = wrapType(ctx, info.type);
    if (!pattern || !valueType) {
      ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} has keys of type '${checker.typeToString(info.keyType)}', which cannot be written as a pattern; use Record<string, V>.`);
      return null;
    }
    const values = resolveType(valueType, `${path}[key]`, ctx, indexValueNode(typeNode, type));
    if (!values) return null;
    entries.push({ pattern, values });
  }
  return entries;
}

// ts-morph's wrapper for a compiler type (it has no public factory for one).
function wrapType(ctx: ResolveContext, type: ts.Type | undefined): Type | undefined {
  const context = (ctx.anchor as unknown as { _context?: { compilerFactory?: { getType(t: ts.Type): Type } } })._context;
  return type && context?.compilerFactory?.getType(type);
}

// The checker lists the keys of a mapped type (`Pick`, `Omit`) in the order it created their
// literal types, which changes with what else the program uses; the declarations are stable.
/** The properties of an object type in declaration order (mapped types included). */
export function propertiesInOrder(type: Type): MorphSymbol[] {
  const properties = type.getProperties();
  const isMapped = type.isObject() && ((type.compilerType as ts.ObjectType).objectFlags & ts.ObjectFlags.Mapped) !== 0;
  if (!isMapped) return properties;
  const positions = properties.map((property) => property.getDeclarations()[0]);
  if (positions.some((d) => d === undefined)) return properties;
  const key = (d: Node) => [d.getSourceFile().getFilePath(), d.getStart()] as const;
  return properties
    .map((property, index) => ({ property, at: key(positions[index]!) }))
    .sort((a, b) => (a.at[0] < b.at[0] ? -1 : a.at[0] > b.at[0] ? 1 : a.at[1] - b.at[1]))
    .map((entry) => entry.property);
}

// Data the model can send: not methods, accessors, private/protected/static/#private class
// members, nor class fields holding functions (`onChange = () => …`).
function isDataProperty(declaration: Node | undefined, name: string, type: Type): boolean {
  if (name.startsWith("#") || name.startsWith("__@")) return false;
  if (!declaration) return true;
  if (Node.isMethodDeclaration(declaration) || Node.isMethodSignature(declaration)) return false;
  if (Node.isGetAccessorDeclaration(declaration) || Node.isSetAccessorDeclaration(declaration)) return false;
  if (Node.isModifierable(declaration) && (declaration.hasModifier("private") || declaration.hasModifier("protected") || declaration.hasModifier("static"))) return false;
  if (Node.isPropertyDeclaration(declaration) && type.getNonNullableType().getCallSignatures().length > 0) return false;
  return true;
}

// `x?: T` and `x: T | undefined` may both be left out.
function isOptional(property: MorphSymbol, type: Type): boolean {
  return property.isOptional() || (type.isUnion() && type.getUnionTypes().some((t) => t.isUndefined()));
}

function isPropertyNode(declaration: Node | undefined): declaration is Node {
  return declaration !== undefined && (Node.isPropertySignature(declaration) || Node.isPropertyDeclaration(declaration));
}

function typeNodeOf(declaration: Node | undefined): TypeNode | undefined {
  if (declaration && (Node.isPropertySignature(declaration) || Node.isPropertyDeclaration(declaration))) return declaration.getTypeNode();
  return undefined;
}
