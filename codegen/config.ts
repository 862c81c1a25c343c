import * as fs from "node:fs";
import * as path from "node:path";
import { CodegenConfigError } from "./configError";

/** How the generated module ends its relative imports: `.js` (`.mjs`, `.cjs`), the source's `.ts`, or nothing. */
export type ImportExtension = "js" | "ts" | "none";

/** The values `--import-extension` and the package.json option accept. */
export const importExtensions: readonly ImportExtension[] = ["js", "ts", "none"];

/** Options of `generateToolSchemas` and the `toolwright codegen` CLI. */
export interface CodegenOptions {
  /** The tsconfig whose program is analysed. Default `tsconfig.json`. */
  project?: string;
  /** The generated module. Default `src/tools.generated.ts`. */
  out?: string;
  /** Where the generated module imports the runtime from. Default `toolwright`. */
  runtimeImport?: string;
  /**
   * How relative imports in the generated module end: `js` (`./tools.js`), `ts` (`./tools.ts`) or
   * `none` (`./tools`). Default: what the project's compiler options need (see README).
   */
  importExtension?: ImportExtension;
  /** Paths are resolved against this directory. Default `process.cwd()`. */
  cwd?: string;
}

/** Options with every default filled and paths made absolute. */
export interface ResolvedCodegenOptions {
  readonly cwd: string;
  readonly project: string;
  readonly out: string;
  readonly runtimeImport: string;
  /** Set when chosen by flag or package.json; undefined means "from the compiler options". */
  readonly importExtension: ImportExtension | undefined;
  /** The command that regenerates the module, as written into it. */
  readonly command: string;
}

const known = ["project", "out", "runtimeImport", "importExtension"];

/**
 * Fills options from, in order: the given options (CLI flags), the `"toolwright"` key of the
 * package.json in `cwd`, the defaults.
 */
export function resolveOptions(options: CodegenOptions): ResolvedCodegenOptions {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const fromPackage = packageConfig(cwd);
  const project = options.project ?? fromPackage.project ?? "tsconfig.json";
  const out = options.out ?? fromPackage.out ?? "src/tools.generated.ts";
  const runtimeImport = options.runtimeImport ?? fromPackage.runtimeImport ?? "toolwright";
  const importExtension = options.importExtension ?? (fromPackage.importExtension as ImportExtension | undefined);
  if (importExtension !== undefined && !importExtensions.includes(importExtension)) {
    throw new CodegenConfigError(`The import extension '${importExtension}' is not one of ${importExtensions.join(", ")}.`);
  }
  const flags = [
    `--project ${project}`,
    `--out ${out}`,
    ...(runtimeImport === "toolwright" ? [] : [`--runtime-import ${runtimeImport}`]),
    ...(importExtension === undefined ? [] : [`--import-extension ${importExtension}`]),
  ];
  return {
    cwd,
    project: path.resolve(cwd, project),
    out: path.resolve(cwd, out),
    runtimeImport,
    importExtension,
    command: `npx toolwright codegen ${flags.join(" ")}`,
  };
}

function packageConfig(cwd: string): Partial<Record<"project" | "out" | "runtimeImport" | "importExtension", string>> {
  const manifest = path.join(cwd, "package.json");
  if (!fs.existsSync(manifest)) return {};
  let config: unknown;
  try {
    config = (JSON.parse(fs.readFileSync(manifest, "utf8")) as { toolwright?: unknown }).toolwright;
  } catch (error) {
    throw new CodegenConfigError(`${manifest} is not valid JSON: ${(error as Error).message}.`);
  }
  if (config === undefined) return {};
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new CodegenConfigError(`The "toolwright" key of ${manifest} must be an object such as { "project": "tsconfig.json", "out": "src/tools.generated.ts" }.`);
  }
  for (const [key, value] of Object.entries(config)) {
    if (!known.includes(key)) throw new CodegenConfigError(`The "toolwright" key of ${manifest} has unknown option "${key}"; the options are ${known.join(", ")}.`);
    if (typeof value !== "string") throw new CodegenConfigError(`The "toolwright" option "${key}" in ${manifest} must be a string.`);
  }
  return config as Record<string, string>;
}
