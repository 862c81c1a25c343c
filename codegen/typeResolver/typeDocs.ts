import { Node, type Type, type TypeNode } from "ts-morph";
import type { ResolveContext, SchemaNode } from "./context";
import { jsDocInfo, type JsDocInfo, withJsDoc } from "./jsDocTags";

const maxDepth = 16;

/**
 * Adds what the JSDoc of a type's declarations says to the schema resolved for it: an interface's,
 * class's or type alias's description and constraint tags, and an enum's description with what
 * each documented member means (`Ticket priority. "urgent": Needs an answer today.`). Aliases the
 * annotation goes through (`type Percent = number`) count too, the outermost winning per keyword.
 * A property's or parameter's own JSDoc is applied after this, so it wins. When the type became a
 * `$ref`, its own JSDoc goes onto its definition, not beside the `$ref`.
 */
export function withTypeDocs(schema: SchemaNode, type: Type, typeNode: TypeNode | undefined, ctx: ResolveContext): SchemaNode {
  const own = ownDeclarations(type, ctx);
  const aliases = aliasDeclarations(typeNode, ctx).filter((d) => !own.includes(d));
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.slice("#/$defs/".length);
    const def = ctx.defs.get(name);
    if (def && own.length > 0) ctx.defs.set(name, withJsDoc(def, mergedDocs(own)));
    return aliases.length > 0 ? withJsDoc(schema, mergedDocs(aliases)) : schema;
  }
  const declarations = [...own, ...aliases];
  return declarations.length > 0 ? withJsDoc(schema, mergedDocs(declarations)) : schema;
}

// Innermost first: the enum, interface or class, then the alias the type was declared with.
function ownDeclarations(type: Type, ctx: ResolveContext): Node[] {
  const found: Node[] = [];
  const declaration = type.getSymbol()?.getDeclarations().find((d) => Node.isInterfaceDeclaration(d) || Node.isClassDeclaration(d) || Node.isEnumDeclaration(d));
  if (declaration && isUserDeclaration(declaration, ctx)) found.push(declaration);
  const alias = type.getAliasSymbol()?.getDeclarations().find(Node.isTypeAliasDeclaration);
  if (alias && isUserDeclaration(alias, ctx)) found.push(alias);
  return found;
}

// The type aliases an annotation goes through (`Score` → `Percent` → `number`), innermost first.
function aliasDeclarations(typeNode: TypeNode | undefined, ctx: ResolveContext): Node[] {
  const found: Node[] = [];
  let node = typeNode;
  for (let depth = 0; node && depth < maxDepth; depth++) {
    if (Node.isParenthesizedTypeNode(node)) {
      node = node.getTypeNode();
      continue;
    }
    if (!Node.isTypeReference(node)) break;
    const symbol = node.getTypeName().getSymbol();
    const resolved = symbol?.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
    const declaration = resolved?.getDeclarations().find(Node.isTypeAliasDeclaration);
    if (!declaration || !isUserDeclaration(declaration, ctx)) break;
    found.unshift(declaration);
    node = declaration.getTypeNode();
  }
  return found;
}

// The standard library's and packages' own JSDoc (`Partial`, `Date`, toolwright's `Integer`) is not the user's description.
function isUserDeclaration(node: Node, ctx: ResolveContext): boolean {
  const file = node.getSourceFile();
  return !file.isDeclarationFile() && !file.isInNodeModules() && !ctx.toolwright.isToolwrightTypeDeclaration(node);
}

// What a declaration's JSDoc says, by compiler node: a shared interface or enum is read once, not
// once per tool that uses it. (Editing a file re-parses it into new compiler nodes, so watch mode
// never reads a stale entry.)
const docsByNode = new WeakMap<object, JsDocInfo>();

function mergedDocs(declarations: readonly Node[]): JsDocInfo {
  let description: string | undefined;
  let keywords: Record<string, unknown> = {};
  for (const declaration of declarations) {
    const info = declarationDocs(declaration);
    description = info.description ?? description;
    keywords = { ...keywords, ...info.keywords };
  }
  return { description, keywords };
}

function declarationDocs(declaration: Node): JsDocInfo {
  let docs = docsByNode.get(declaration.compilerNode);
  if (!docs) docsByNode.set(declaration.compilerNode, (docs = readDeclarationDocs(declaration)));
  return docs;
}

function readDeclarationDocs(declaration: Node): JsDocInfo {
  const info = lastDocs(declaration);
  if (!Node.isEnumDeclaration(declaration)) return info;
  const meanings = declaration.getMembers().flatMap((member) => {
    const value = member.getValue();
    const text = lastDocs(member).description;
    return value === undefined || !text ? [] : [`${JSON.stringify(value)}: ${sentence(text)}`];
  });
  if (meanings.length === 0) return info;
  return { ...info, description: [info.description && sentence(info.description), ...meanings].filter(Boolean).join(" ") };
}

function lastDocs(node: Node): JsDocInfo {
  if (!Node.isJSDocable(node)) return { keywords: {} };
  const doc = node.getJsDocs().at(-1);
  if (!doc) return { keywords: {} };
  return jsDocInfo(
    doc.getDescription(),
    doc.getTags().map((t) => [t.getTagName(), t.getCommentText() ?? ""] as const),
  );
}

function sentence(text: string): string {
  const trimmed = text.trim().replace(/\s*\n\s*/g, " ");
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
