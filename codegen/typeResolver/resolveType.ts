import { Node, type Type, type TypeNode } from "ts-morph";
import { type ResolveContext, type SchemaNode, dateMarker } from "./context";
import { declaredOrder, enumSchema, type Literal, literalValue } from "./literals";
import { resolveObject } from "./resolveObject";

/**
 * Turns a TypeScript type into a JSON Schema node (§3.1). Reports unsupported types as
 * diagnostics naming `path` and returns undefined for them.
 *
 * @param typeNode The annotation the type came from, when there is one (for union order).
 */
export function resolveType(type: Type, path: string, ctx: ResolveContext, typeNode?: TypeNode): SchemaNode | undefined {
  if (ctx.toolwright.isInteger(type)) return { type: "integer" };
  if (type.isAny() || type.isUnknown()) {
    ctx.diagnostics.at(ctx.anchor, "TW302", `${path} is '${type.getText()}', which gives the model no schema; give it a type, or mark it with @asType any to accept any JSON value.`);
    return undefined;
  }
  if (type.isString()) return { type: "string" };
  if (type.isNumber()) return { type: "number" };
  if (type.isBoolean()) return { type: "boolean" };
  if (type.isNull()) return { type: "null" };
  const literal = literalValue(type);
  if (literal !== undefined) return enumSchema([literal]);
  if (type.isUnion()) return resolveUnion(type, path, ctx, typeNode);
  if (type.isTemplateLiteral()) return { type: "string" };
  if (isLibType(type, "Date")) return { type: "string", format: "date-time", [dateMarker]: true };
  const element = arrayElement(type);
  if (element) {
    const items = resolveType(element, `${path}[]`, ctx, elementNode(typeNode));
    return items && { type: "array", items };
  }
  if (type.isTuple()) return resolveTuple(type, path, ctx);
  if (type.isIntersection()) {
    const primitive = type.getIntersectionTypes().find((t) => t.isString() || t.isNumber() || t.isBoolean());
    if (primitive) return resolveType(primitive, path, ctx);
  }
  if (type.isObject() || type.isIntersection()) return resolveObject(type, path, ctx);
  ctx.diagnostics.at(ctx.anchor, "TW301", `${path} has type '${type.getText()}', which has no JSON form the model can send; use string, number, boolean, literals, arrays, or objects of those.`);
  return undefined;
}

function resolveUnion(type: Type, path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): SchemaNode | undefined {
  const members = type.getUnionTypes().filter((t) => !t.isUndefined() && !t.isVoid());
  const nullable = members.some((t) => t.isNull());
  let rest = members.filter((t) => !t.isNull());
  const values = rest.map(literalValue);
  let schema: SchemaNode | undefined;
  if (rest.length > 0 && values.every((v) => v !== undefined)) {
    const literals = values as Literal[];
    if (literals.length === 2 && literals.includes(true) && literals.includes(false)) schema = { type: "boolean" };
    else schema = enumSchema(declaredOrder(type, dedupe(literals), unionNode(typeNode)));
  } else {
    // `boolean` inside a wider union arrives as `true | false`.
    const booleans = rest.filter((t) => t.isBooleanLiteral());
    if (booleans.length === 2) rest = [...rest.filter((t) => !t.isBooleanLiteral()), booleans[0]!.getApparentType()];
    if (rest.length === 1) {
      schema = booleans.length === 2 ? { type: "boolean" } : resolveType(rest[0]!, path, ctx, typeNode);
    } else {
      const branches = rest.map((t) => (t.isBooleanLiteral() || t.getText() === "Boolean" ? { type: "boolean" } : resolveType(t, path, ctx)));
      if (branches.some((b) => b === undefined)) return undefined;
      schema = { anyOf: branches as SchemaNode[] };
    }
  }
  if (!schema || !nullable) return schema;
  return withNull(schema);
}

/** Adds `null` to a schema: in `type` for primitives and enums, else as an `anyOf` branch. */
export function withNull(schema: SchemaNode): SchemaNode {
  if (Array.isArray(schema.enum)) return { ...schema, type: [...([] as string[]).concat(schema.type as string | string[]), "null"], enum: [...schema.enum, null] };
  if (typeof schema.type === "string" && ["string", "number", "integer", "boolean"].includes(schema.type)) return { ...schema, type: [schema.type, "null"] };
  if (schema.anyOf) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

function resolveTuple(type: Type, path: string, ctx: ResolveContext): SchemaNode | undefined {
  const elements = type.getTupleElements();
  const items = elements.map((t, i) => resolveType(t, `${path}[${i}]`, ctx));
  if (items.some((i) => i === undefined)) return undefined;
  const target = (type.compilerType as { target?: { minLength?: number; hasRestElement?: boolean } }).target;
  const minItems = target?.minLength ?? elements.length;
  if (target?.hasRestElement) {
    ctx.diagnostics.at(ctx.anchor, "TW301", `${path} is a tuple with a rest element, which has no fixed JSON Schema; use a fixed-length tuple or an array.`);
    return undefined;
  }
  return { type: "array", prefixItems: items as SchemaNode[], minItems, maxItems: elements.length };
}

function arrayElement(type: Type): Type | undefined {
  if (type.isArray()) return type.getArrayElementType();
  const symbol = type.getSymbol();
  if (symbol?.getName() === "ReadonlyArray" && isLibType(type, "ReadonlyArray")) return type.getTypeArguments()[0];
  return undefined;
}

function elementNode(typeNode: TypeNode | undefined): TypeNode | undefined {
  if (!typeNode) return undefined;
  if (Node.isArrayTypeNode(typeNode)) return typeNode.getElementTypeNode();
  if (Node.isTypeOperatorTypeNode(typeNode)) return elementNode(typeNode.getTypeNode());
  if (Node.isTypeReference(typeNode) && ["Array", "ReadonlyArray"].includes(typeNode.getTypeName().getText())) return typeNode.getTypeArguments()[0];
  return undefined;
}

function unionNode(typeNode: TypeNode | undefined): TypeNode | undefined {
  return typeNode;
}

/** True when the type is the standard library's `name` (not a user type of the same name). */
export function isLibType(type: Type, name: string): boolean {
  const symbol = type.getSymbol();
  if (symbol?.getName() !== name) return false;
  return symbol.getDeclarations().some((d) => /[/\\]typescript[/\\]lib[/\\]lib\.[\w.]*\.d\.ts$/.test(d.getSourceFile().getFilePath()) || d.getSourceFile().getBaseName().startsWith("lib."));
}

function dedupe<T>(values: T[]): T[] {
  return [...new Set(values)];
}
