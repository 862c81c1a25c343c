import { type EnumDeclaration, Node, SyntaxKind, type Type, type TypeNode } from "ts-morph";
import type { SchemaNode } from "./context";
import { aliasNodeOf, unionMemberNodes } from "./typeNodes";

/** A literal value a type can have. */
export type Literal = string | number | boolean;

/** The literal value of a string/number/boolean literal type (enum members included), or undefined. */
export function literalValue(type: Type): Literal | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.getLiteralValue() as string | number;
  if (type.isBooleanLiteral()) return type.getText() === "true";
  if (type.isEnumLiteral()) {
    const value = type.getLiteralValue();
    return typeof value === "string" || typeof value === "number" ? value : undefined;
  }
  return undefined;
}

/** `{ type, enum }` for literal values, keeping their order. */
export function enumSchema(values: readonly Literal[]): SchemaNode {
  const types = [...new Set(values.map((v) => typeof v))] as Array<"string" | "number" | "boolean">;
  return { type: types.length === 1 ? types[0]! : types, enum: [...values] };
}

/**
 * Literal values of a union in the order the source declares them: the checker orders union
 * members by creation, which is not declaration order. Reads the enum declaration, the type
 * alias's union, or the annotation's union (through parentheses, aliases, imports and enum
 * references); values it cannot place keep the checker's order, after the others.
 */
export function declaredOrder(type: Type, values: Literal[], typeNode: TypeNode | undefined): Literal[] {
  const order = sourceOrder(type, typeNode);
  if (order.length === 0) return values;
  const rank = (v: Literal) => {
    const i = order.findIndex((o) => o === v);
    return i === -1 ? order.length + values.indexOf(v) : i;
  };
  return [...values].sort((a, b) => rank(a) - rank(b));
}

function sourceOrder(type: Type, typeNode: TypeNode | undefined): Literal[] {
  const enumDeclaration = type.getSymbol()?.getDeclarations().find(Node.isEnumDeclaration);
  if (enumDeclaration) return enumValues(enumDeclaration);
  const fromAlias = literalsOfNode(aliasNodeOf(type));
  return fromAlias.length > 0 ? fromAlias : literalsOfNode(typeNode);
}

function literalsOfNode(typeNode: TypeNode | undefined): Literal[] {
  return unionMemberNodes(typeNode).flatMap((node): Literal[] => {
    if (node.getKind() === SyntaxKind.BooleanKeyword) return [true, false];
    if (Node.isLiteralTypeNode(node)) {
      const literal = node.getLiteral();
      if (Node.isStringLiteral(literal) || Node.isNoSubstitutionTemplateLiteral(literal)) return [literal.getLiteralValue()];
      if (Node.isNumericLiteral(literal)) return [literal.getLiteralValue()];
      if (Node.isPrefixUnaryExpression(literal)) return [Number(literal.getText())];
      if (Node.isTrueLiteral(literal)) return [true];
      if (Node.isFalseLiteral(literal)) return [false];
      return [];
    }
    if (Node.isTypeReference(node)) {
      const symbol = node.getTypeName().getSymbol();
      const resolved = symbol?.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
      const declaration = resolved?.getDeclarations()[0];
      if (declaration && Node.isEnumDeclaration(declaration)) return enumValues(declaration);
      if (declaration && Node.isEnumMember(declaration)) {
        const value = declaration.getValue();
        return value === undefined ? [] : [value];
      }
    }
    return [];
  });
}

function enumValues(declaration: EnumDeclaration): Literal[] {
  return declaration.getMembers().map((m) => m.getValue()).filter((v): v is string | number => v !== undefined);
}
