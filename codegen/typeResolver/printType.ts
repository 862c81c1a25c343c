import { Node, type ParameterDeclaration, ts, type Type } from "ts-morph";
import type { ToolwrightSymbols } from "../toolwrightSymbols";
import { propertiesInOrder } from "./resolveObject";
import { isLibType } from "./resolveType";

/**
 * The parameter list of a tool as a TypeScript tuple type written only with names the generated
 * module can use: `[query: string, limit?: number, state: any]`. The generated module checks it
 * against `Parameters<…>` of the method both ways, so a parameter whose type changed since codegen
 * breaks `tsc`. User types are written out structurally (non-exported ones cannot be named);
 * whatever cannot be written faithfully is `any`, which that check accepts (see `printType`).
 */
export function printParameterTuple(parameters: readonly ParameterDeclaration[], roles: readonly string[], symbols: ToolwrightSymbols): string {
  const list = parameters.filter((p) => p.getName() !== "this");
  const canOmit = (p: ParameterDeclaration) => p.isRestParameter() || p.hasQuestionToken() || p.hasInitializer();
  // A parameter with a default is optional in the signature only when every later one is too;
  // before a required parameter its type is `T | undefined` instead (as `Parameters<>` has it).
  let firstOptional = list.length;
  while (firstOptional > 0 && canOmit(list[firstOptional - 1]!)) firstOptional -= 1;
  const elements = list.map((parameter, index) => {
    const nameNode = parameter.getNameNode();
    const label = Node.isIdentifier(nameNode) ? nameNode.getText() : `arg${index + 1}`;
    if (parameter.isRestParameter()) return `...${label}: any[]`;
    const text = roles[index] === "state" ? "any" : printType(parameter.getType(), symbols, parameter, []);
    if (index >= firstOptional && canOmit(parameter)) return `${label}?: ${text}`;
    return parameter.hasInitializer() && text !== "any" ? `${label}: ${text} | undefined` : `${label}: ${text}`;
  });
  return `[${elements.join(", ")}]`;
}

/**
 * A type written out structurally (union members sorted: the checker's order depends on what else
 * the program holds), or `any` where that would not be faithful: enums (a literal is
 * not assignable to an enum member), classes (their private members and methods make them
 * nominal), functions, intersections other than `Integer`, template literals, type parameters and
 * types that contain themselves.
 */
export function printType(type: Type, symbols: ToolwrightSymbols, location: Node, seen: readonly Type[]): string {
  if (symbols.isInteger(type)) return "number";
  if (type.isAny() || type.isUnknown() || type.isTypeParameter() || type.isEnumLiteral() || type.isEnum() || seen.includes(type)) return "any";
  if (type.isString() || type.isNumber() || type.isBoolean() || type.isNull() || type.isUndefined() || type.isVoid()) return type.getText();
  if (type.isStringLiteral() || type.isNumberLiteral()) return JSON.stringify(type.getLiteralValue());
  if (type.isBooleanLiteral()) return type.getText();
  if (type.isUnion()) return anyIfAny(type.getUnionTypes().map((t) => printType(t, symbols, location, seen)), (parts) => dedupe(parts).sort().join(" | "));
  if (isLibType(type, "Date")) return "Date";
  const inner = [...seen, type];
  if (type.isArray() || type.isReadonlyArray()) {
    const element = type.getArrayElementType() ?? type.getTypeArguments()[0];
    if (!element) return "any";
    const text = printType(element, symbols, location, inner);
    if (text === "any") return "any";
    return `${type.isReadonlyArray() ? "readonly " : ""}${text.includes(" | ") || text.startsWith("readonly ") ? `(${text})` : text}[]`;
  }
  if (type.isTuple()) return printTuple(type, symbols, location, inner);
  if (type.isObject() && !type.isClass() && !isClassInstance(type)) return printObject(type, symbols, location, inner);
  return "any";
}

function printTuple(type: Type, symbols: ToolwrightSymbols, location: Node, seen: readonly Type[]): string {
  const target = (type.compilerType as { target?: ts.TupleType }).target;
  const flags = target?.elementFlags ?? [];
  if (flags.some((f) => (f & (ts.ElementFlags.Rest | ts.ElementFlags.Variadic)) !== 0)) return "any";
  const elements = type.getTupleElements().map((t, i) => {
    const text = printType(t, symbols, location, seen);
    return (flags[i]! & ts.ElementFlags.Optional) !== 0 ? `(${text})?` : text;
  });
  return `${target?.readonly ? "readonly " : ""}[${elements.join(", ")}]`;
}

function printObject(type: Type, symbols: ToolwrightSymbols, location: Node, seen: readonly Type[]): string {
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return "any";
  const members: string[] = [];
  for (const property of propertiesInOrder(type)) {
    const declaration = property.getValueDeclaration() ?? property.getDeclarations()[0];
    const name = property.getName();
    if (name.startsWith("__@") || name.startsWith("#")) return "any";
    if (declaration && !Node.isPropertySignature(declaration) && !Node.isPropertyAssignment(declaration) && !Node.isShorthandPropertyAssignment(declaration)) return "any";
    const readonly = declaration && Node.isPropertySignature(declaration) && declaration.isReadonly() ? "readonly " : "";
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    members.push(`${readonly}${key}${property.isOptional() ? "?" : ""}: ${printType(property.getTypeAtLocation(location), symbols, location, seen)}`);
  }
  const stringIndex = type.getStringIndexType();
  if (stringIndex) members.push(`[key: string]: ${printType(stringIndex, symbols, location, seen)}`);
  const numberIndex = type.getNumberIndexType();
  if (numberIndex && !stringIndex) members.push(`[key: number]: ${printType(numberIndex, symbols, location, seen)}`);
  return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
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
