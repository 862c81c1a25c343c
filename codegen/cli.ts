#!/usr/bin/env node
// Only this file and what it imports load without typescript and ts-morph (optional peer
// dependencies of the runtime package): codegen itself is required lazily, in loadCodegen.
import * as fs from "node:fs";
import * as path from "node:path";
import { type ImportExtension, importExtensions, resolveOptions } from "./config";
import { CodegenConfigError } from "./configError";
import { type Diagnostic, formatDiagnostic, sortDiagnostics } from "./diagnostics";
import type { generateToolSchemas } from "./generateToolSchemas";
import { runImportHaystack } from "./importHaystackCommand";
import { progressLine } from "./progressLine";
import type { watchToolSchemas, WatchEvent } from "./watch";

const usage = `Usage: toolwright codegen [options]
       toolwright import-haystack <agent.yaml> [--out <dir>] [--component <name>] [--force]
       toolwright --version

Generates the JSON Schemas of every @tool method and defineTool function into one module.

Options:
  --project <file>         tsconfig.json of the program to analyse (default: tsconfig.json)
  --out <file>             the generated module (default: src/tools.generated.ts)
  --runtime-import <name>  module the generated code imports the runtime from (default: toolwright)
  --import-extension <js|ts|none>
                           how relative imports in the generated module end (default: what the
                           tsconfig needs: js for node16/nodenext, ts with allowImportingTsExtensions
                           or rewriteRelativeImportExtensions, else none)
  --check                  write nothing; exit 1 when the generated module is out of date
  --watch                  regenerate when a .ts file changes
  --help                   show this help
  --version                print the version of toolwright

Options can also be set under a "toolwright" key in package.json:
{ "project": …, "out": …, "runtimeImport": …, "importExtension": … }.`;

interface CliArgs {
  project?: string;
  out?: string;
  runtimeImport?: string;
  importExtension?: ImportExtension;
  check: boolean;
  watch: boolean;
  help: boolean;
  /** Set for `toolwright` alone: print the help, exit 2. */
  noCommand?: boolean;
  version?: boolean;
}

/** Parses `toolwright codegen` arguments; throws CodegenConfigError on a bad one. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { check: false, watch: false, help: false };
  const [command, ...rest] = argv;
  if (command === undefined) return { ...args, help: true, noCommand: true };
  if (command === "--help" || command === "-h") return { ...args, help: true };
  if (command === "--version" || command === "-v") return { ...args, version: true };
  if (command !== "codegen") throw new CodegenConfigError(`Unknown command '${command}'; the commands are 'codegen' and 'import-haystack'.\n\n${usage}`);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (!v || v.startsWith("--")) throw new CodegenConfigError(`${flag} needs a value.\n\n${usage}`);
      return v;
    };
    const noValue = () => {
      if (inline !== undefined) throw new CodegenConfigError(`${flag} takes no value; write ${flag} alone.\n\n${usage}`);
      return true;
    };
    if (flag === "--project" || flag === "-p") args.project = value();
    else if (flag === "--out" || flag === "-o") args.out = value();
    else if (flag === "--runtime-import") args.runtimeImport = value();
    else if (flag === "--import-extension") args.importExtension = importExtension(value());
    else if (flag === "--check") args.check = noValue();
    else if (flag === "--watch" || flag === "-w") args.watch = noValue();
    else if (flag === "--help" || flag === "-h") args.help = noValue();
    else throw new CodegenConfigError(`Unknown option '${arg}'.\n\n${usage}`);
  }
  if (args.check && args.watch) throw new CodegenConfigError("--check and --watch cannot be used together: use --check in CI and --watch while editing.");
  return args;
}

function importExtension(value: string): ImportExtension {
  if (importExtensions.includes(value as ImportExtension)) return value as ImportExtension;
  throw new CodegenConfigError(`--import-extension must be one of ${importExtensions.join(", ")}, not '${value}'.\n\n${usage}`);
}

/** What the CLI needs from the codegen modules, which need typescript and ts-morph. */
export interface CodegenModules {
  readonly generateToolSchemas: typeof generateToolSchemas;
  readonly watchToolSchemas: typeof watchToolSchemas;
}

/**
 * Requires codegen, first checking that typescript and ts-morph can be loaded: the runtime package
 * does not depend on them, so a project that never installed them gets one line saying what to
 * install (a CodegenConfigError, exit 2) instead of a MODULE_NOT_FOUND stack.
 */
export function loadCodegen(load: (id: string) => unknown = require): CodegenModules {
  const missing: string[] = [];
  for (const id of ["typescript", "ts-morph"]) {
    try {
      load(id);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
      missing.push(id);
    }
  }
  if (missing.length > 0) {
    throw new CodegenConfigError(
      `toolwright codegen needs ${missing.join(" and ")}, which ${missing.length === 1 ? "is" : "are"} not installed (the runtime does not depend on them); install them as dev dependencies: npm i -D typescript@5.9 ts-morph@27.`,
    );
  }
  return {
    generateToolSchemas: (load("./generateToolSchemas") as typeof import("./generateToolSchemas")).generateToolSchemas,
    watchToolSchemas: (load("./watch") as typeof import("./watch")).watchToolSchemas,
  };
}

/** The version in toolwright's package.json (found from this file, as source or compiled into dist/). */
export function packageVersion(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (!fs.existsSync(manifest)) continue;
    const parsed = JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (parsed.name === "toolwright" && parsed.version) return parsed.version;
  }
  throw new CodegenConfigError("toolwright's package.json cannot be found; reinstall toolwright.");
}

/**
 * Runs the CLI; resolves with the exit code: 0 done, 1 diagnostics or (with --check) an out-of-date
 * module, 2 bad options or setup. Paths are resolved against `cwd`.
 */
export async function main(
  argv: readonly string[],
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  cwd: string = process.cwd(),
  load: () => CodegenModules = loadCodegen,
): Promise<number> {
  try {
    if (argv[0] === "import-haystack") return await runImportHaystack(argv.slice(1), out, err, cwd);
    const args = parseArgs(argv);
    if (args.noCommand) {
      err.write(`${usage}\n`);
      return 2;
    }
    if (args.help) {
      out.write(`${usage}\n`);
      return 0;
    }
    if (args.version) {
      out.write(`${packageVersion()}\n`);
      return 0;
    }
    const options = { project: args.project, out: args.out, runtimeImport: args.runtimeImport, importExtension: args.importExtension, cwd };
    const { generateToolSchemas, watchToolSchemas } = load();
    if (args.watch) {
      const label = path.relative(cwd, resolveOptions(options).out).split(path.sep).join("/");
      watchToolSchemas(options, (event) => reportWatchEvent(event, label, out, err));
      return await new Promise<number>(() => undefined);
    }
    const progress = progressLine(out);
    const result = await generateToolSchemas({ ...options, check: args.check, onProgress: (p) => progress.update(p) });
    progress.clear();
    const label = path.relative(cwd, result.out).split(path.sep).join("/") || result.out;
    for (const d of sortDiagnostics([...result.diagnostics, ...result.warnings])) err.write(`${formatDiagnostic(d)}\n`);
    if (result.diagnostics.length > 0) {
      err.write(`\nFound ${found(result.diagnostics, result.warnings)}.\n`);
      return 1;
    }
    // Warnings never change the exit code, with or without --check.
    const count = `${plural(result.tools.length, "tool")}${result.warnings.length > 0 ? `, ${plural(result.warnings.length, "warning")}` : ""}`;
    if (args.check) {
      if (result.ok) {
        out.write(`${label} is up to date (${count}).\n`);
        return 0;
      }
      const command = resolveOptions(options).command;
      const why = !fs.existsSync(result.out) ? "does not exist" : `is out of date: ${result.stale.length > 0 ? `stale tools: ${result.stale.join(", ")}` : "its text differs"}`;
      err.write(`${label} ${why}. Run \`${command}\` and commit the result.\n`);
      return 1;
    }
    out.write(`${result.written ? "wrote" : "unchanged:"} ${label} (${count}).\n`);
    return 0;
  } catch (error) {
    if (error instanceof CodegenConfigError) {
      err.write(`toolwright: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

// `2 errors`, or `1 error and 1 warning`.
function found(errors: readonly Diagnostic[], warnings: readonly Diagnostic[]): string {
  return warnings.length === 0 ? plural(errors.length, "error") : `${plural(errors.length, "error")} and ${plural(warnings.length, "warning")}`;
}

/**
 * Prints one `--watch` regeneration: its diagnostics, then a line with the local time and the
 * generated module: `[14:03:07] wrote src/tools.generated.ts (3 tools, 2 files analysed, 41 ms). Watching for changes.`
 */
export function reportWatchEvent(event: WatchEvent, label: string, out: NodeJS.WritableStream, err: NodeJS.WritableStream, now: Date = new Date()): void {
  const { analysis } = event;
  const time = `[${[now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":")}]`;
  for (const d of sortDiagnostics([...analysis.diagnostics, ...analysis.warnings])) err.write(`${formatDiagnostic(d)}\n`);
  if (analysis.diagnostics.length > 0) {
    err.write(`${time} Found ${found(analysis.diagnostics, analysis.warnings)}; ${label} was left as it was. Watching for changes.\n`);
    return;
  }
  const warnings = analysis.warnings.length > 0 ? `, ${plural(analysis.warnings.length, "warning")}` : "";
  out.write(
    `${time} ${event.written ? "wrote" : "unchanged:"} ${label} (${plural(analysis.tools.length, "tool")}${warnings}, ${plural(event.analysedFiles.length, "file")} analysed, ${event.ms.toFixed(0)} ms). Watching for changes.\n`,
  );
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 2;
    },
  );
}
