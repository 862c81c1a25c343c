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
      diagnostics.at(decorator, "TW104", `@tool is on ${className}.${member.getName()}, which is ${what}; @tool only marks methods.`);
    }
  }
  for (const method of cls.getMethods()) {
    const decorator = toolDecorator(method.getDecorators(), symbols);
    if (!decorator) continue;
    const label = `${className}.${method.getName()}`;
    if (method.hasModifier(SyntaxKind.PrivateKeyword) || method.hasModifier(SyntaxKind.ProtectedKeyword) || method.getName().startsWith("#")) {
      diagnostics.at(decorator, "TW104", `${label} is not public; a @tool method must be public so the generated module can refer to it.`);
      continue;
    }
    if (!Node.isIdentifier(method.getNameNode()) && !Node.isStringLiteral(method.getNameNode())) {
      diagnostics.at(decorator, "TW104", `${label} has a computed name; a @tool method needs a plain name.`);
      continue;
    }
    if (!cls.getName() || !cls.isExported() || cls.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a) || Node.isClassDeclaration(a))) {
      diagnostics.at(decorator, "TW106", `${label} is in a class that is not exported from its module; export the class (at the top level) so the generated module can import it.`);
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

function discoverDefineTool(call: CallExpression, symbols: ToolwrightSymbols, diagnostics: Diagnostics): DiscoveredTool | undefined {
  if (!symbols.refersTo(call.getExpression(), "defineTool")) return undefined;
  const [fnArgument, optionsArgument] = call.getArguments();
  const declaration = call.getParentIfKind(SyntaxKind.VariableDeclaration);
  const statement = declaration?.getVariableStatement();
  if (!declaration || !statement || !statement.isExported() || statement.getDeclarationKind() !== "const" || !Node.isIdentifier(declaration.getNameNode()) || statement.getParent() !== call.getSourceFile()) {
    diagnostics.at(call, "TW105", "defineTool(...) must be assigned to an exported top-level const (export const searchDocs = defineTool(...)) so the generated module can import it.");
    return undefined;
  }
  const fn = fnArgument && (Node.isFunctionExpression(fnArgument) || Node.isArrowFunction(fnArgument)) ? fnArgument : undefined;
  if (!fn) {
    diagnostics.at(call, "TW105", `defineTool in ${declaration.getName()} must be given a function written in place (a function expression or an arrow function), so codegen can read its parameters.`);
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
