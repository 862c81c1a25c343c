import { Node, type Symbol as MorphSymbol, type Type } from "ts-morph";
import { isToolwrightOwnFile } from "../ownSource";

/** A type the generated module imports so that it can name it: `import type { name } from file`. */
export interface TypeImport {
  /** The declaring file (absolute). */
  readonly file: string;
  /** The name the file exports it under (`default` for a default export). */
  readonly name: string;
}

/** A declared type that can be named from the generated module, with its type arguments (if generic). */
export interface NamedType {
  readonly import: TypeImport;
  /** `Status.Open` names a member of the enum `Status`. */
  readonly member?: string;
  readonly typeArguments: readonly Type[];
}

/**
 * The name under which the generated module can refer to `type`: an interface, class, enum (or
 * enum member) or type alias declared at the top level of a project source file (not a declaration
 * file, not in node_modules) and exported from it. Naming a type instead of writing it out lets the
 * checker compare the parameter's type with itself (identity), and keeps types that have no faithful
 * structural form (enums, classes, recursive types) checked. Undefined when the type has no such name.
 */
export function namedTypeOf(type: Type): NamedType | undefined {
  const alias = type.getAliasSymbol();
  if (alias) {
    const found = exportedName(alias);
    if (found) return { import: found, typeArguments: type.getAliasTypeArguments() };
    // A non-exported alias of an exported type (`type Local = Address`) still names that type.
  }
  const symbol = type.getSymbol();
  if (!symbol) return undefined;
  const declaration = symbol.getDeclarations()[0];
  if (Node.isEnumMember(declaration) && type.isEnumLiteral()) {
    const enumDeclaration = declaration.getParent();
    const found = exportedName(enumDeclaration.getSymbol());
    return found && { import: found, member: declaration.getName(), typeArguments: [] };
  }
  if (!Node.isInterfaceDeclaration(declaration) && !Node.isClassDeclaration(declaration) && !Node.isEnumDeclaration(declaration)) return undefined;
  // An instance of a generic class or interface carries its type arguments, then (for the declared
  // type itself) its `this` type: keep as many as it has type parameters.
  const parameters = Node.isEnumDeclaration(declaration) ? 0 : declaration.getTypeParameters().length;
  const found = exportedName(symbol);
  return found && { import: found, typeArguments: type.getTypeArguments().slice(0, parameters) };
}

function exportedName(symbol: MorphSymbol | undefined): TypeImport | undefined {
  const declaration = symbol?.getDeclarations()[0];
  if (!declaration) return undefined;
  if (!Node.isInterfaceDeclaration(declaration) && !Node.isClassDeclaration(declaration) && !Node.isEnumDeclaration(declaration) && !Node.isTypeAliasDeclaration(declaration)) return undefined;
  const sourceFile = declaration.getSourceFile();
  if (declaration.getParent() !== sourceFile || sourceFile.isDeclarationFile() || sourceFile.isInNodeModules() || isToolwrightOwnFile(sourceFile.getFilePath())) return undefined;
  // Merged declarations (an interface declared twice, a class and an interface) are named only when
  // they are all in that file.
  if (symbol!.getDeclarations().some((d) => d.getSourceFile() !== sourceFile)) return undefined;
  if (declaration.hasExportKeyword()) {
    const name = declaration.isDefaultExport() ? "default" : declaration.getName();
    return name === undefined ? undefined : { file: sourceFile.getFilePath(), name };
  }
  // `export { Address }` or `export { Address as Place }` further down the file.
  for (const [name, declarations] of sourceFile.getExportedDeclarations()) {
    if (declarations.includes(declaration)) return { file: sourceFile.getFilePath(), name };
  }
  return undefined;
}
