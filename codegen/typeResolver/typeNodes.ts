import { Node, type Symbol as MorphSymbol, SyntaxKind, type Type, type TypeNode } from "ts-morph";

// The checker orders union members (and so literal values, anyOf branches and the keys of mapped
// types) by when it first created each type, which depends on what else the program uses. The
// written annotation is the only record of the order the user declared, so the resolver carries
// the annotation down alongside the type; these helpers follow it into the parts of a type.

const maxDepth = 16;

/**
 * The annotation a node stands for: parentheses, `readonly` and references to non-generic type
 * aliases (imported ones included) removed.
 */
export function concreteNode(node: TypeNode | undefined, depth = 0): TypeNode | undefined {
  if (!node || depth > maxDepth) return node;
  if (Node.isParenthesizedTypeNode(node)) return concreteNode(node.getTypeNode(), depth + 1);
  if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) return concreteNode(node.getTypeNode(), depth + 1);
  if (Node.isTypeReference(node) && node.getTypeArguments().length === 0) {
    const aliased = aliasTypeNode(node.getTypeName().getSymbol());
    if (aliased) return concreteNode(aliased, depth + 1);
  }
  return node;
}

/** The annotation of a type alias the type was written with (`type Shape = Circle | Square`). */
export function aliasNodeOf(type: Type): TypeNode | undefined {
  return aliasTypeNode(type.getAliasSymbol(), true);
}

function aliasTypeNode(symbol: MorphSymbol | undefined, allowGeneric = false): TypeNode | undefined {
  const resolved = symbol?.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
  const declaration = resolved?.getDeclarations().find(Node.isTypeAliasDeclaration);
  if (!declaration || (!allowGeneric && declaration.getTypeParameters().length > 0)) return undefined;
  return declaration.getTypeNode();
}

/** The element annotation of `T[]`, `readonly T[]`, `Array<T>` and `ReadonlyArray<T>`. */
export function elementNode(typeNode: TypeNode | undefined): TypeNode | undefined {
  const node = concreteNode(typeNode);
  if (!node) return undefined;
  if (Node.isArrayTypeNode(node)) return node.getElementTypeNode();
  if (Node.isTypeReference(node) && ["Array", "ReadonlyArray"].includes(node.getTypeName().getText())) return node.getTypeArguments()[0];
  return undefined;
}

/** The element annotations of a tuple (`[a: A, b?: B]` → `A`, `B`), by position. */
export function tupleElementNodes(typeNode: TypeNode | undefined): Array<TypeNode | undefined> {
  const node = concreteNode(typeNode);
  if (!node || !Node.isTupleTypeNode(node)) return [];
  return node.getElements().map((element) => {
    let inner: TypeNode | undefined = element;
    // A rest element (`...B[]`, `...rest: B[]`) stands for its elements: its annotation is theirs.
    let rest = false;
    if (Node.isNamedTupleMember(inner)) {
      rest = inner.getDotDotDotToken() !== undefined;
      inner = inner.getTypeNode();
    }
    if (inner && Node.isRestTypeNode(inner)) {
      rest = true;
      inner = inner.getTypeNode();
    }
    if (inner && Node.isOptionalTypeNode(inner)) inner = inner.getTypeNode();
    return rest ? elementNode(inner) : inner;
  });
}

/** The annotation of a map's values: `V` of `Record<string, V>`, or an index signature's type. */
export function indexValueNode(typeNode: TypeNode | undefined, type: Type): TypeNode | undefined {
  const node = concreteNode(typeNode);
  if (node && Node.isTypeReference(node) && node.getTypeName().getText() === "Record" && node.getTypeArguments().length === 2) return node.getTypeArguments()[1];
  const owners = node && Node.isTypeLiteral(node) ? [node] : (type.getSymbol()?.getDeclarations() ?? []);
  for (const owner of owners) {
    if (!Node.isTypeLiteral(owner) && !Node.isInterfaceDeclaration(owner)) continue;
    if (Node.isInterfaceDeclaration(owner) && owner.getTypeParameters().length > 0) continue;
    const signature = owner.getIndexSignatures()[0];
    if (signature) return signature.getReturnTypeNode();
  }
  return undefined;
}

/** The members of a union annotation, flattened through parentheses, nested unions and aliases. */
export function unionMemberNodes(typeNode: TypeNode | undefined, depth = 0): TypeNode[] {
  const node = concreteNode(typeNode);
  if (!node || depth > maxDepth) return [];
  if (Node.isUnionTypeNode(node)) return node.getTypeNodes().flatMap((member) => unionMemberNodes(member, depth + 1));
  return [node];
}

/**
 * Orders union members as the annotation's members (`unionMemberNodes`) declare them: each member
 * goes where the first annotation member of that type (or of a union containing it, such as an enum or `boolean`)
 * stands; members the annotation does not place keep the checker's order, after the others.
 */
export function declaredMemberOrder(members: readonly Type[], nodes: readonly TypeNode[]): Type[] {
  if (nodes.length === 0) return [...members];
  const nodeTypes = nodes.map((node) => node.getType());
  const rank = (member: Type) => {
    const i = nodeTypes.findIndex((t) => t === member || (t.isUnion() && t.getUnionTypes().includes(member)));
    return i === -1 ? nodes.length : i;
  };
  return members.map((member, index) => ({ member, index, rank: rank(member) })).sort((a, b) => a.rank - b.rank || a.index - b.index).map((entry) => entry.member);
}
