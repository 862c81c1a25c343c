import { ts, type Type, type TypeNode } from "ts-morph";
import { dateMarker, reportNode, type ResolveContext, type SchemaNode } from "./context";
import { declaredOrder, enumSchema, type Literal, literalValue } from "./literals";
import { resolveObject } from "./resolveObject";
import { resolveRecursive } from "./recursion";
import { templatePattern } from "./templatePattern";
import { withTypeDocs } from "./typeDocs";
import { aliasNodeOf, declaredMemberOrder, elementNode, tupleElementNodes, unionMemberNodes } from "./typeNodes";

/**
 * Turns a TypeScript type into a JSON Schema node (the table in README "Type mapping"). Reports unsupported types as
 * diagnostics naming `path` and returns undefined for them.
 *
 * @param typeNode The annotation the type came from, when there is one (for union order).
 */
export function resolveType(type: Type, path: string, ctx: ResolveContext, typeNode?: TypeNode): SchemaNode | undefined {
  const schema = resolveUndocumented(type, path, ctx, typeNode);
  return schema && withTypeDocs(schema, type, typeNode, ctx);
}

function resolveUndocumented(type: Type, path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): SchemaNode | undefined {
  if (ctx.toolwright.isInteger(type)) return { type: "integer" };
  if (type.isAny() || type.isUnknown()) {
    ctx.diagnostics.at(reportNode(ctx), "TW302", `${path} is '${type.getText()}', which gives the model no schema; give it a type, or mark it with @asType any to accept any JSON value.`);
    return undefined;
  }
  if (type.isString()) return { type: "string" };
  if (type.isNumber()) return { type: "number" };
  if (type.isBoolean()) return { type: "boolean" };
  if (type.isNull()) return { type: "null" };
  const literal = literalValue(type);
  if (literal !== undefined) return enumSchema([literal]);
  if (type.isUnion()) return resolveUnion(type, path, ctx, typeNode);
  if (type.isTemplateLiteral()) return templateSchema(type, path, ctx);
  if (isLibType(type, "Date")) return { type: "string", format: "date-time", [dateMarker]: true };
  const element = arrayElement(type);
  if (element) {
    const items = resolveType(element, `${path}[]`, ctx, elementNode(typeNode));
    return items && { type: "array", items };
  }
  if (type.isTuple()) return resolveTuple(type, path, ctx, typeNode);
  if (type.isIntersection()) {
    const primitive = type.getIntersectionTypes().find((t) => t.isString() || t.isNumber() || t.isBoolean());
    if (primitive) return resolveType(primitive, path, ctx);
  }
  if (type.isObject() || type.isIntersection()) return resolveObject(type, path, ctx, typeNode);
  if ((type.getFlags() & ts.TypeFlags.NonPrimitive) !== 0) {
    ctx.diagnostics.at(
      reportNode(ctx),
      "TW301",
      `${path} has type 'object', which lists no properties, so the model cannot tell what to send; use an interface that lists them, or Record<string, T> with a JSON type T for any keys.`,
    );
    return undefined;
  }
  ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} has type '${type.getText()}', which has no JSON form the model can send; use string, number, boolean, literals, arrays, or objects of those.`);
  return undefined;
}

function resolveUnion(type: Type, path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): SchemaNode | undefined {
  const members = type.getUnionTypes();
  const rest = members.filter((t) => !t.isNull() && !t.isUndefined() && !t.isVoid());
  if (rest.length === members.length) return resolveRecursive(type, ctx, () => unionSchema(type, rest, path, ctx, typeNode));
  // `T | null` and `T | undefined`: resolve T as a whole (so a recursive `Expr | null` refers to
  // Expr's def), then add null; undefined only makes the value optional.
  if (rest.length === 0) return { type: "null" };
  let schema: SchemaNode | undefined;
  if (rest.length === 1) {
    schema = resolveType(rest[0]!, path, ctx, memberNodes(type, typeNode).find((n) => n.getType() === rest[0]) ?? typeNode);
  } else {
    const inner = type.getNonNullableType();
    const isRest = inner.isUnion() && inner.getUnionTypes().length === rest.length;
    schema = isRest ? resolveType(inner, path, ctx, typeNode) : resolveRecursive(type, ctx, () => unionSchema(type, rest, path, ctx, typeNode));
  }
  return schema && members.some((t) => t.isNull()) ? withNull(schema) : schema;
}

function unionSchema(type: Type, members: readonly Type[], path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): SchemaNode | undefined {
  // `${"GET" | "POST"} /${string}` is a union of templates to the checker: one pattern accepts them all.
  if (members.some((t) => t.isTemplateLiteral()) && members.every((t) => t.isTemplateLiteral() || t.isStringLiteral())) {
    return templateSchema(members.length === 1 ? members[0]! : type.getNonNullableType(), path, ctx);
  }
  const nodes = memberNodes(type, typeNode);
  const ordered = declaredMemberOrder(members, nodes);
  const literals = ordered.map(literalValue).filter((v): v is Literal => v !== undefined);
  const branches: SchemaNode[] = [];
  let literalsPlaced = false;
  let failed = false;
  for (const member of ordered) {
    if (literalValue(member) !== undefined) {
      // All literal members form one enum, placed where the first of them is declared.
      if (!literalsPlaced) branches.push(literalSchema(declaredOrder(type, dedupe(literals), typeNode)));
      literalsPlaced = true;
      continue;
    }
    const branch = resolveType(member, path, ctx, nodes.find((n) => n.getType() === member));
    if (branch) branches.push(branch);
    else failed = true;
  }
  if (failed || branches.length === 0) return undefined;
  return branches.length === 1 ? branches[0]! : { anyOf: branches };
}

// The annotation's members, or those of the alias the type was declared with.
function memberNodes(type: Type, typeNode: TypeNode | undefined): TypeNode[] {
  const nodes = unionMemberNodes(typeNode);
  return nodes.length > 1 ? nodes : unionMemberNodes(aliasNodeOf(type));
}

// `true | false` (how the checker spells `boolean`) is `boolean`; other literals are an enum.
function literalSchema(values: Literal[]): SchemaNode {
  if (values.length === 2 && values.includes(true) && values.includes(false)) return { type: "boolean" };
  return enumSchema(values);
}

/** Adds `null` to a schema: in `type` for primitives and enums, else as an `anyOf` branch. */
export function withNull(schema: SchemaNode): SchemaNode {
  if (Array.isArray(schema.enum)) return { ...schema, type: [...([] as string[]).concat(schema.type as string | string[]), "null"], enum: [...schema.enum, null] };
  if (typeof schema.type === "string" && ["string", "number", "integer", "boolean"].includes(schema.type)) return { ...schema, type: [schema.type, "null"] };
  if (schema.anyOf) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  return { anyOf: [schema, { type: "null" }] };
}

function resolveTuple(type: Type, path: string, ctx: ResolveContext, typeNode: TypeNode | undefined): SchemaNode | undefined {
  const elements = type.getTupleElements();
  const target = (type.compilerType as { target?: { minLength?: number; elementFlags?: readonly ts.ElementFlags[] } }).target;
  const flags = target?.elementFlags ?? [];
  const variable = flags.map((f, i) => ((f & (ts.ElementFlags.Rest | ts.ElementFlags.Variadic)) !== 0 ? i : -1)).filter((i) => i !== -1);
  // `[A, ...B[]]`: JSON Schema can say "these first, then any number of those"; a rest element
  // before others (`[...A[], B]`) it cannot.
  const restLast = variable.length === 1 && variable[0] === elements.length - 1 && (flags[variable[0]!]! & ts.ElementFlags.Rest) !== 0;
  if (variable.length > 0 && !restLast) {
    ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} is a tuple with a rest element before other elements, which JSON Schema cannot describe; put the rest element last ([A, ...B[]]) or use an array.`);
    return undefined;
  }
  const nodes = tupleElementNodes(typeNode);
  const items = elements.map((t, i) => resolveType(t, restLast && i === elements.length - 1 ? `${path}[]` : `${path}[${i}]`, ctx, nodes[i]));
  if (items.some((i) => i === undefined)) return undefined;
  const minItems = target?.minLength ?? elements.length;
  if (restLast) return { type: "array", prefixItems: items.slice(0, -1) as SchemaNode[], items: items.at(-1)!, minItems };
  return { type: "array", prefixItems: items as SchemaNode[], minItems, maxItems: elements.length };
}

/** `{ type: "string", pattern }` for a template literal type (or a union of templates and string literals). */
function templateSchema(type: Type, path: string, ctx: ResolveContext): SchemaNode | undefined {
  const pattern = templatePattern(type.compilerType);
  if (pattern !== undefined) return { type: "string", pattern };
  ctx.diagnostics.at(reportNode(ctx), "TW301", `${path} has type '${type.getText()}', a template that cannot be written as a pattern; use a string type alias with a JSDoc @pattern instead (/** @pattern <regex> */ type Code = string).`);
  return undefined;
}

function arrayElement(type: Type): Type | undefined {
  if (type.isArray()) return type.getArrayElementType();
  const symbol = type.getSymbol();
  if (symbol?.getName() === "ReadonlyArray" && isLibType(type, "ReadonlyArray")) return type.getTypeArguments()[0];
  return undefined;
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
