import {
  type ArrowFunction,
  type CallExpression,
  type ClassDeclaration,
  type Decorator,
  type FunctionExpression,
  type MethodDeclaration,
  Node,
  type ParameterDeclaration,
  type Project,
  type SourceFile,
  SyntaxKind,
} from "ts-morph";
import type { Diagnostics } from "./diagnostics";
import type { ToolwrightSymbols } from "./toolwrightSymbols";

/** A `@tool` method or `defineTool` call found in the source, before any analysis. */
export interface DiscoveredTool {
  readonly kind: "method" | "function";
  /** Class name, or the exported const's name. */
  readonly ownerName: string;
  /** Method name, or the function's own name. */
  readonly member: string;
  readonly isStatic: boolean;
  readonly sourceFile: SourceFile;
  /** The decorator or the `defineTool` call: where diagnostics about the tool point. */
  readonly anchor: Node;
  /** The options object argument, if any. */
  readonly optionsArgument: Node | undefined;
  /** The method or function whose parameters become the schema. */
  readonly signature: MethodDeclaration | FunctionExpression | ArrowFunction;
  readonly parameters: readonly ParameterDeclaration[];
  /** The node whose JSDoc describes the tool. */
  readonly docNode: Node;
}

/** Finds every `@tool` method and `defineTool` call in the project's own source files. */
export function discoverTools(project: Project, symbols: ToolwrightSymbols, diagnostics: Diagnostics): DiscoveredTool[] {
  const found: DiscoveredTool[] = [];
  for (const sourceFile of project.getSourceFiles()) {
    if (sourceFile.isDeclarationFile() || sourceFile.isInNodeModules()) continue;
    found.push(...discoverInFile(sourceFile, symbols, diagnostics));
  }
  return found;
}

/** The tools of one source file (for watch mode, which re-reads only changed files). */
export function discoverInFile(sourceFile: SourceFile, symbols: ToolwrightSymbols, diagnostics: Diagnostics): DiscoveredTool[] {
  const found: DiscoveredTool[] = [];
  const text = sourceFile.getFullText();
  if (text.includes("@")) {
    for (const cls of sourceFile.getDescendantsOfKind(SyntaxKind.ClassDeclaration)) found.push(...discoverInClass(cls, symbols, diagnostics));
  }
  if (text.includes("defineTool")) {
    for (const call of sourceFile.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const tool = discoverDefineTool(call, symbols, diagnostics);
      if (tool) found.push(tool);
    }
  }
  return found;
}

function toolDecorator(decorators: Decorator[], symbols: ToolwrightSymbols): Decorator | undefined {
  return decorators.find((d) => {
    const callee = d.getCallExpression()?.getExpression() ?? d.getExpression();
    return symbols.refersTo(callee, "tool");
  });
}

function discoverInClass(cls: ClassDeclaration, symbols: ToolwrightSymbols, diagnostics: Diagnostics): DiscoveredTool[] {
  const found: DiscoveredTool[] = [];
  const className = cls.getName() ?? "(anonymous class)";
  for (const member of [...cls.getProperties(), ...cls.getGetAccessors(), ...cls.getSetAccessors()]) {
    const decorator = toolDecorator(member.getDecorators(), symbols);
    if (decorator) {
      const what = Node.isPropertyDeclaration(member) ? "a property" : Node.isGetAccessorDeclaration(member) ? "a getter" : "a setter";
      diagnostics.at(decorator, "TW104", `${className}.${member.getName()} is ${what}, and @tool only marks methods; make it a method or remove @tool.`);
    }
  }
  let unexported: string | undefined | null = null;
  for (const method of cls.getMethods()) {
    const decorator = toolDecorator(method.getDecorators(), symbols);
    if (!decorator) continue;
    const label = `${className}.${method.getName()}`;
    const hidden = method.getName().startsWith("#") ? "#private" : method.hasModifier(SyntaxKind.PrivateKeyword) ? "private" : method.hasModifier(SyntaxKind.ProtectedKeyword) ? "protected" : undefined;
    if (hidden) {
      const fix = hidden === "#private" ? "drop the '#' from its name" : `remove the ${hidden} modifier`;
      diagnostics.at(decorator, "TW104", `${label} is ${hidden}, but a @tool method must be public so the generated module can refer to it; ${fix}.`);
      continue;
    }
    if (!Node.isIdentifier(method.getNameNode()) && !Node.isStringLiteral(method.getNameNode())) {
      diagnostics.at(decorator, "TW104", `${label} has a computed name, but a @tool method needs a name the generated module can write; give it a plain name.`);
      continue;
    }
    if (unexported === null) unexported = whyNotImportable(cls);
    if (unexported !== undefined) {
      diagnostics.at(decorator, "TW106", `${label} is a @tool method of ${unexported} so the generated module can import it.`);
      continue;
    }
    found.push({
      kind: "method",
      ownerName: className,
      member: method.getName(),
      isStatic: method.isStatic(),
      sourceFile: cls.getSourceFile(),
      anchor: decorator,
      optionsArgument: decorator.getArguments()[0],
      signature: method,
      parameters: method.getParameters(),
      docNode: method,
    });
  }
  return found;
}

// Why the generated module cannot `import { Name }` the class (the rest of a TW106 message), or undefined when it can.
function whyNotImportable(cls: ClassDeclaration): string | undefined {
  const name = cls.getName();
  if (!name) return "an anonymous class; name the class and export it (export class Tools)";
  if (cls.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a) || Node.isClassDeclaration(a) || Node.isModuleDeclaration(a))) {
    return `${name}, a class declared inside another declaration; move it to the top level of its module and export it (export class ${name})`;
  }
  const exportedAs = exportNames(cls);
  if (exportedAs.includes(name)) return undefined;
  if (exportedAs.length > 0) return `${name}, which is exported only as ${exportedAs.map((n) => `'${n}'`).join(", ")}; export it under its own name (export class ${name})`;
  return `${name}, which is not exported; export the class (export class ${name})`;
}

// The names a declaration is exported under from its own module (`default`, an alias, its own name).
function exportNames(declaration: Node): string[] {
  const names: string[] = [];
  for (const [exportName, declarations] of declaration.getSourceFile().getExportedDeclarations()) {
    if ((declarations as Node[]).includes(declaration)) names.push(exportName);
  }
  return names.sort();
}

function discoverDefineTool(call: CallExpression, symbols: ToolwrightSymbols, diagnostics: Diagnostics): DiscoveredTool | undefined {
  if (!symbols.refersTo(call.getExpression(), "defineTool")) return undefined;
  const [fnArgument, optionsArgument] = call.getArguments();
  const declaration = call.getParentIfKind(SyntaxKind.VariableDeclaration);
  const statement = declaration?.getVariableStatement();
  if (
    !declaration ||
    !statement ||
    statement.getDeclarationKind() !== "const" ||
    !Node.isIdentifier(declaration.getNameNode()) ||
    statement.getParent() !== call.getSourceFile() ||
    !exportNames(declaration).includes(declaration.getName())
  ) {
    const fnName = declaration && Node.isIdentifier(declaration.getNameNode()) ? declaration.getName() : fnArgument && Node.isFunctionExpression(fnArgument) ? fnArgument.getName() : undefined;
    const subject = fnName ? `defineTool for '${fnName}'` : "A defineTool call";
    diagnostics.at(
      call,
      "TW105",
      `${subject} is not assigned to an exported top-level const, so the generated module cannot import it; write export const ${fnName ?? "myTool"} = defineTool(...).`,
    );
    return undefined;
  }
  const fn = fnArgument && (Node.isFunctionExpression(fnArgument) || Node.isArrowFunction(fnArgument)) ? fnArgument : undefined;
  if (!fn) {
    diagnostics.at(
      call,
      "TW105",
      `defineTool for '${declaration.getName()}' is given ${fnArgument ? `'${fnArgument.getText()}'` : "no function"}, but codegen needs the function written in place to read its parameters; pass a function expression or an arrow function.`,
    );
    return undefined;
  }
  const functionName = Node.isFunctionExpression(fn) ? (fn.getName() ?? declaration.getName()) : declaration.getName();
  return {
    kind: "function",
    ownerName: declaration.getName(),
    member: functionName,
    isStatic: false,
    sourceFile: call.getSourceFile(),
    anchor: call,
    optionsArgument,
    signature: fn,
    parameters: fn.getParameters(),
    docNode: statement,
  };
}
