import * as fs from "node:fs";
import * as path from "node:path";
import { ts } from "ts-morph";

import type { ImportExtension } from "../config";

const nodeModuleKinds = new Set([ts.ModuleKind.Node16, ts.ModuleKind.NodeNext, 101, 102]); // 101, 102: node18, node20

/**
 * The extension relative imports need to resolve under the project's compiler options:
 * `rewriteRelativeImportExtensions` → `ts`; `moduleResolution` node16/nodenext → `js` (ES module
 * files need it, and CommonJS files resolve it as well, so one rule serves both package types);
 * `bundler` → `ts` with `allowImportingTsExtensions`, else `none`; node10/classic → `none`.
 */
export function importExtensionFor(options: ts.CompilerOptions): ImportExtension {
  if (options.rewriteRelativeImportExtensions) return "ts";
  const resolution = moduleResolutionOf(options);
  if (resolution === ts.ModuleResolutionKind.Node16 || resolution === ts.ModuleResolutionKind.NodeNext) return "js";
  if (resolution === ts.ModuleResolutionKind.Bundler) return options.allowImportingTsExtensions ? "ts" : "none";
  return "none";
}

function moduleResolutionOf(options: ts.CompilerOptions): ts.ModuleResolutionKind {
  if (options.moduleResolution !== undefined) return options.moduleResolution;
  const module = moduleKindOf(options);
  if (module === ts.ModuleKind.NodeNext) return ts.ModuleResolutionKind.NodeNext;
  if (nodeModuleKinds.has(module)) return ts.ModuleResolutionKind.Node16;
  if (module === ts.ModuleKind.Preserve) return ts.ModuleResolutionKind.Bundler;
  return module === ts.ModuleKind.CommonJS ? ts.ModuleResolutionKind.Node10 : ts.ModuleResolutionKind.Classic;
}

function moduleKindOf(options: ts.CompilerOptions): ts.ModuleKind {
  if (options.module !== undefined) return options.module;
  return (options.target ?? ts.ScriptTarget.ES5) >= ts.ScriptTarget.ES2015 ? ts.ModuleKind.ES2015 : ts.ModuleKind.CommonJS;
}

/**
 * Why the file would be a CommonJS module under `verbatimModuleSyntax` (where TypeScript rejects
 * `import`/`export` syntax, TS1286/TS1287), or undefined when it is an ES module or the option is off.
 * Under node16/nodenext the file's own extension, then the nearest package.json "type", decide.
 */
export function commonJsUnderVerbatimModuleSyntax(options: ts.CompilerOptions, file: string, relative: (file: string) => string = (f) => f): string | undefined {
  if (!options.verbatimModuleSyntax) return undefined;
  const module = moduleKindOf(options);
  if (module === ts.ModuleKind.CommonJS) return `"module": "commonjs"`;
  if (!nodeModuleKinds.has(module) || file.endsWith(".mts")) return undefined;
  if (file.endsWith(".cts")) return "its .cts extension";
  const manifest = nearestPackageJson(path.dirname(file));
  const type = manifest && packageType(manifest);
  return type === "module" ? undefined : manifest ? `${relative(manifest)} has no "type": "module"` : `no package.json with "type": "module" is above it`;
}

function nearestPackageJson(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, "package.json");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

function packageType(manifest: string): unknown {
  try {
    return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { type?: unknown }).type;
  } catch {
    return undefined;
  }
}

/** The import specifier of `file` from the generated module: `./tools/support`, `./tools/support.js`. */
export function relativeImport(outFile: string, file: string, extension: ImportExtension = "none"): string {
  let specifier = path.relative(path.dirname(outFile), file).split(path.sep).join("/");
  if (!specifier.startsWith(".")) specifier = `./${specifier}`;
  const [, stem = specifier, declaration, sourceExtension = ""] = /^(.*?)(\.d)?\.(ts|tsx|mts|cts)$/.exec(specifier) ?? [];
  const js = { ts: ".js", tsx: ".js", mts: ".mjs", cts: ".cjs" }[sourceExtension] ?? "";
  // A declaration file has no .ts of its own to import; its .js is what it declares.
  if (extension === "js" || (extension === "ts" && declaration)) return `${stem}${js}`;
  if (extension === "ts") return `${stem}.${sourceExtension}`;
  // Without an extension `.mts`/`.cts` files cannot be found; their output extension can.
  return sourceExtension === "mts" || sourceExtension === "cts" ? `${stem}${js}` : stem;
}
