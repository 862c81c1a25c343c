import * as ts from "typescript";

/**
 * Compiles TypeScript with TypeScript 5 standard decorators (no experimentalDecorators) and runs
 * it as a CommonJS module whose `require("toolwright")` is this repository's source. Returns the
 * module's exports.
 */
export function runWithStandardDecorators(source: string): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, experimentalDecorators: false, useDefineForClassFields: true },
  });
  const module = { exports: {} as Record<string, unknown> };
  const requireShim = (id: string): unknown => (id === "toolwright" ? require("../../src/index") : require(id));
  new Function("require", "module", "exports", outputText)(requireShim, module, module.exports);
  return module.exports;
}
