import { type Expression, Node, SyntaxKind, VariableDeclarationKind } from "ts-morph";

const maxDepth = 16;

/**
 * The JSON value of a constant expression, or undefined when it is not one: string, number
 * (`30_000`, `0x10`, `-1`), boolean and null literals, no-substitution templates, arrays and
 * objects of constants, enum members, and references to `const` variables whose initializer is a
 * constant (through `as const`, `satisfies` and parentheses). Values are read from the checker's
 * literal values, never from the source text, so escapes are decoded (`'it\'s'` is `it's`).
 */
export function constantValue(node: Node, depth = 0): { value: unknown } | undefined {
  if (depth > maxDepth) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return { value: node.getLiteralValue() };
  if (Node.isNumericLiteral(node)) return finite(Number(node.compilerNode.text));
  if (Node.isTrueLiteral(node)) return { value: true };
  if (Node.isFalseLiteral(node)) return { value: false };
  if (Node.isNullLiteral(node)) return { value: null };
  if (Node.isParenthesizedExpression(node) || Node.isAsExpression(node) || Node.isSatisfiesExpression(node) || Node.isTypeAssertion(node) || Node.isNonNullExpression(node)) {
    return constantValue(node.getExpression(), depth + 1);
  }
  if (Node.isPrefixUnaryExpression(node)) {
    const operator = node.getOperatorToken();
    if (operator !== SyntaxKind.MinusToken && operator !== SyntaxKind.PlusToken) return undefined;
    const operand = constantValue(node.getOperand(), depth + 1);
    if (!operand || typeof operand.value !== "number") return undefined;
    return finite(operator === SyntaxKind.MinusToken ? -operand.value : operand.value);
  }
  if (Node.isArrayLiteralExpression(node)) {
    const values: unknown[] = [];
    for (const element of node.getElements()) {
      const value = Node.isSpreadElement(element) || Node.isOmittedExpression(element) ? undefined : constantValue(element, depth + 1);
      if (!value) return undefined;
      values.push(value.value);
    }
    return { value: values };
  }
  if (Node.isObjectLiteralExpression(node)) {
    const object: Record<string, unknown> = {};
    for (const property of node.getProperties()) {
      let key: string | undefined;
      let value: { value: unknown } | undefined;
      if (Node.isPropertyAssignment(property)) {
        const name = property.getNameNode();
        if (Node.isIdentifier(name)) key = name.getText();
        else if (Node.isStringLiteral(name) || Node.isNoSubstitutionTemplateLiteral(name)) key = name.getLiteralValue();
        else if (Node.isNumericLiteral(name)) key = String(Number(name.compilerNode.text));
        value = constantValue(property.getInitializerOrThrow(), depth + 1);
      } else if (Node.isShorthandPropertyAssignment(property)) {
        key = property.getName();
        value = referencedConstant(property.getNameNode(), depth + 1);
      }
      if (key === undefined || !value) return undefined;
      Object.defineProperty(object, key, { value: value.value, enumerable: true, writable: true, configurable: true });
    }
    return { value: object };
  }
  if (Node.isIdentifier(node) || Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node)) return referencedConstant(node as Expression, depth + 1);
  return undefined;
}

// An enum member (its value), or a `const` variable with a constant initializer.
function referencedConstant(node: Node, depth: number): { value: unknown } | undefined {
  const type = node.getType();
  if (type.isEnumLiteral()) {
    const value = type.getLiteralValue();
    return typeof value === "string" || typeof value === "number" ? { value } : undefined;
  }
  const symbol = node.getSymbol();
  const resolved = symbol?.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
  const declaration = resolved?.getValueDeclaration();
  if (declaration && Node.isEnumMember(declaration)) {
    const value = declaration.getValue();
    return value === undefined ? undefined : { value };
  }
  if (declaration && Node.isVariableDeclaration(declaration) && declaration.getVariableStatement()?.getDeclarationKind() === VariableDeclarationKind.Const) {
    const initializer = declaration.getInitializer();
    if (initializer && Node.isIdentifier(declaration.getNameNode())) return constantValue(initializer, depth + 1);
  }
  return undefined;
}

function finite(value: number): { value: number } | undefined {
  return Number.isFinite(value) ? { value } : undefined;
}
