import * as fs from "node:fs";
import * as path from "node:path";
import { Node, type Symbol as MorphSymbol, type Type } from "ts-morph";

/**
 * Recognises toolwright's own declarations (`tool`, `defineTool`, `State`, `Integer`) by where an
 * identifier's import resolves to — a file of the toolwright package, as source or as `.d.ts` —
 * never by its text: `import { tool as t }` is recognised, a user's own `tool` is not.
 */
export class ToolwrightSymbols {
  readonly #packageOf = new Map<string, boolean>();

  /** True when `node` (an identifier or expression) refers to toolwright's export `name`. */
  refersTo(node: Node, name: "tool" | "defineTool"): boolean {
    const symbol = node.getSymbol();
    return symbol !== undefined && this.isToolwrightSymbol(symbol, name, name === "tool" ? "decorators/tool" : "decorators/defineTool");
  }

  /** True for toolwright's `State` type (any `State<…>`). */
  isState(type: Type): boolean {
    const symbol = type.getSymbol() ?? type.getAliasSymbol();
    return symbol !== undefined && this.isToolwrightSymbol(symbol, "State", "src/state/state");
  }

  /** True for toolwright's branded `Integer` type. */
  isInteger(type: Type): boolean {
    const symbol = type.getAliasSymbol();
    return symbol !== undefined && this.isToolwrightSymbol(symbol, "Integer", "decorators/integer");
  }

  /** True for toolwright's `ImageContent` or `FileContent` class (the instance type). */
  isMedia(type: Type): boolean {
    const symbol = type.getSymbol();
    if (symbol === undefined) return false;
    const name = symbol.getName();
    return (name === "ImageContent" && this.isToolwrightSymbol(symbol, name, "src/media/imageContent")) || (name === "FileContent" && this.isToolwrightSymbol(symbol, name, "src/media/fileContent"));
  }

  /** True when `declaration` is in a toolwright module that declares types users annotate with (`Integer`, `State`). */
  isToolwrightTypeDeclaration(declaration: Node): boolean {
    const file = declaration.getSourceFile().getFilePath();
    const withoutExtension = file.replace(/(\.d)?\.[cm]?[tj]s$/, "");
    return ["decorators/integer", "src/state/state"].some((suffix) => withoutExtension.endsWith(`/${suffix}`)) && this.inToolwrightPackage(path.dirname(file));
  }

  private isToolwrightSymbol(symbol: MorphSymbol, name: string, moduleSuffix: string): boolean {
    const resolved = symbol.isAlias() ? symbol.getAliasedSymbol() ?? symbol : symbol;
    if (resolved.getName() !== name) return false;
    return resolved.getDeclarations().some((declaration) => {
      const file = declaration.getSourceFile().getFilePath();
      const withoutExtension = file.replace(/(\.d)?\.[cm]?[tj]s$/, "");
      return withoutExtension.endsWith(`/${moduleSuffix}`) && this.inToolwrightPackage(path.dirname(file));
    });
  }

  private inToolwrightPackage(dir: string): boolean {
    const cached = this.#packageOf.get(dir);
    if (cached !== undefined) return cached;
    let result = false;
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) {
      try {
        result = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "toolwright";
      } catch {
        result = false;
      }
    } else {
      const parent = path.dirname(dir);
      result = parent !== dir && this.inToolwrightPackage(parent);
    }
    this.#packageOf.set(dir, result);
    return result;
  }
}

