import { Node, type ParameterDeclaration, ts, type Type } from "ts-morph";
import type { ToolwrightSymbols } from "../toolwrightSymbols";
import { namedTypeOf, type TypeImport } from "./namedTypes";
import { propertiesInOrder } from "./resolveObject";
import { isLibType } from "./resolveType";

/**
 * The parameters of a tool as the generated module writes them, to call the method with values of
 * these types (see `renderModule`'s checks). In each `type`, `\u0001i\u0001` stands for the local
 * name of `imports[i]`, which the module imports with `import type` (see `resolveTypeReferences`).
 */
export interface PrintedParameters {
  readonly parameters: readonly PrintedParameter[];
  readonly imports: readonly TypeImport[];
}

/** One parameter: its name (`arg2` for a destructured one) and type; a rest parameter's type is `any[]`. */
export interface PrintedParameter {
  readonly label: string;
  /** The type of the value passed: `T | undefined` for a parameter that may be left out. */
  readonly type: string;
  readonly rest: boolean;
}

/** The placeholder for the local name of import `index` in a printed type. */
export function typeReference(index: number): string {
  return `\u0001${index}\u0001`;
}

/** `type` with each placeholder replaced by the local name `localName` gives its import. */
export function resolveTypeReferences(type: string, imports: readonly TypeImport[], localName: (type: TypeImport) => string): string {
  return imports.length === 0 ? type : type.replace(/\u0001(\d+)\u0001/g, (_, i: string) => localName(imports[Number(i)]!));
}

interface PrintContext {
  readonly symbols: ToolwrightSymbols;
  readonly location: Node;
  readonly imports: TypeImport[];
}

/**
 * The parameters of a tool written only with names the generated module can use:
 * `query: string, limit: number | undefined, filter: Filter<string>, state: any`. The generated
 * module calls the method with values of these types, so a method whose parameters no longer accept
 * what codegen read breaks `tsc`. Exported user types are named (imported by the module), others
 * written out structurally; whatever cannot be written faithfully is `any`, which every parameter
 * accepts (see `printType`).
 */
export function printParameters(parameters: readonly ParameterDeclaration[], roles: readonly string[], symbols: ToolwrightSymbols): PrintedParameters {
  const imports: TypeImport[] = [];
  const printed = parameters
    .filter((p) => p.getName() !== "this")
    .map((parameter, index): PrintedParameter => {
      const nameNode = parameter.getNameNode();
      const label = Node.isIdentifier(nameNode) ? nameNode.getText() : `arg${index + 1}`;
      if (parameter.isRestParameter()) return { label, type: "any[]", rest: true };
      if (roles[index] === "state") return { label, type: "any", rest: false };
      const type = parameter.getType();
      const text = printType(type, { symbols, location: parameter, imports }, []);
      // A parameter that may be left out is passed `undefined` when the model leaves it out.
      const omittable = parameter.hasQuestionToken() || parameter.hasInitializer();
      const hasUndefined = type.isUndefined() || (type.isUnion() && type.getUnionTypes().some((t) => t.isUndefined()));
      return { label, type: omittable && !hasUndefined && text !== "any" ? `${text} | undefined` : text, rest: false };
    });
  return { parameters: printed, imports };
}

/**
 * A type as the generated module can write it: by name when it is an exported declaration of the
 * project (`namedTypeOf`), else structurally (union members sorted: the checker's order depends on
 * what else the program holds), or `any` where that would not be faithful: non-exported enums (a
 * literal is not assignable to an enum member) and classes (their private members and methods make
 * them nominal), functions, intersections other than `Integer`, template literals, type parameters
 * and types that contain themselves.
 */
function printType(type: Type, ctx: PrintContext, seen: readonly Type[]): string {
  if (ctx.symbols.isInteger(type)) return "number";
  if (type.isAny() || type.isUnknown() || type.isTypeParameter()) return "any";
  const named = namedTypeOf(type);
  if (named) return printNamed(named, ctx, seen);
  if (type.isEnumLiteral() || type.isEnum() || seen.includes(type)) return "any";
  // Written from the flags: `getText()` would run the checker's type printer on every parameter.
  if (type.isString()) return "string";
  if (type.isNumber()) return "number";
  if (type.isBoolean()) return "boolean";
  if (type.isNull()) return "null";
  if (type.isUndefined()) return "undefined";
  if (type.isVoid()) return "void";
  if (type.isStringLiteral() || type.isNumberLiteral()) return JSON.stringify(type.getLiteralValue());
  if (type.isBooleanLiteral()) return (type.compilerType as { intrinsicName?: string }).intrinsicName === "true" ? "true" : "false";
  if (type.isUnion()) return anyIfAny(type.getUnionTypes().map((t) => printType(t, ctx, seen)), (parts) => dedupe(parts).sort().join(" | "));
  if (isLibType(type, "Date")) return "Date";
  const inner = [...seen, type];
  if (type.isArray() || type.isReadonlyArray()) {
    const element = type.getArrayElementType() ?? type.getTypeArguments()[0];
    if (!element) return "any";
    const text = printType(element, ctx, inner);
    if (text === "any") return "any";
    return `${type.isReadonlyArray() ? "readonly " : ""}${text.includes(" | ") || text.startsWith("readonly ") ? `(${text})` : text}[]`;
  }
  if (type.isTuple()) return printTuple(type, ctx, inner);
  if (type.isObject() && !type.isClass() && !isClassInstance(type)) return printObject(type, ctx, inner);
  return "any";
}

function printTuple(type: Type, ctx: PrintContext, seen: readonly Type[]): string {
  const target = (type.compilerType as { target?: ts.TupleType }).target;
  const flags = target?.elementFlags ?? [];
  if (flags.some((f) => (f & (ts.ElementFlags.Rest | ts.ElementFlags.Variadic)) !== 0)) return "any";
  const elements = type.getTupleElements().map((t, i) => {
    const text = printType(t, ctx, seen);
    return (flags[i]! & ts.ElementFlags.Optional) !== 0 ? `(${text})?` : text;
  });
  return `${target?.readonly ? "readonly " : ""}[${elements.join(", ")}]`;
}

function printObject(type: Type, ctx: PrintContext, seen: readonly Type[]): string {
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return "any";
  const members: string[] = [];
  for (const property of propertiesInOrder(type)) {
    const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
    const name = property.getName();
    if (name.startsWith("__@") || name.startsWith("#")) return "any";
    if (declaration && !Node.isPropertySignature(declaration) && !Node.isPropertyAssignment(declaration) && !Node.isShorthandPropertyAssignment(declaration)) return "any";
    const readonly = declaration && Node.isPropertySignature(declaration) && declaration.isReadonly() ? "readonly " : "";
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    members.push(`${readonly}${key}${property.isOptional() ? "?" : ""}: ${printType(property.getTypeAtLocation(ctx.location), ctx, seen)}`);
  }
  const stringIndex = type.getStringIndexType();
  if (stringIndex) members.push(`[key: string]: ${printType(stringIndex, ctx, seen)}`);
  const numberIndex = type.getNumberIndexType();
  if (numberIndex && !stringIndex) members.push(`[key: number]: ${printType(numberIndex, ctx, seen)}`);
  return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
}

function printNamed(named: NonNullable<ReturnType<typeof namedTypeOf>>, ctx: PrintContext, seen: readonly Type[]): string {
  let index = ctx.imports.findIndex((i) => i.file === named.import.file && i.name === named.import.name);
  if (index === -1) index = ctx.imports.push(named.import) - 1;
  const name = named.member === undefined ? typeReference(index) : `${typeReference(index)}.${named.member}`;
  if (named.typeArguments.length === 0) return name;
  return `${name}<${named.typeArguments.map((t) => printType(t, ctx, seen)).join(", ")}>`;
}

function isClassInstance(type: Type): boolean {
  return (type.getSymbol()?.getDeclarations() ?? []).some((d) => Node.isClassDeclaration(d) || Node.isClassExpression(d));
}

// A union with an `any` part is not checked at all: `any | string` is `any`.
function anyIfAny(parts: readonly string[], join: (parts: readonly string[]) => string): string {
  return parts.includes("any") ? "any" : join(parts);
}

function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}
