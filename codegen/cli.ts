#!/usr/bin/env node
import { formatDiagnostic } from "./diagnostics";
import { generateToolSchemas } from "./generateToolSchemas";
import { CodegenConfigError } from "./project";
import { resolveOptions } from "./config";
import { watchToolSchemas, type WatchEvent } from "./watch";
import * as fs from "node:fs";
import * as path from "node:path";

const usage = `Usage: toolwright codegen [options]

Generates the JSON Schemas of every @tool method and defineTool function into one module.

Options:
  --project <file>         tsconfig.json of the program to analyse (default: tsconfig.json)
  --out <file>             the generated module (default: src/tools.generated.ts)
  --runtime-import <name>  module the generated code imports the runtime from (default: toolwright)
  --check                  write nothing; exit 1 when the generated module is out of date
  --watch                  regenerate when a .ts file changes
  --help                   show this help

Options can also be set under a "toolwright" key in package.json: { "project": …, "out": … }.`;

interface CliArgs {
  project?: string;
  out?: string;
  runtimeImport?: string;
  check: boolean;
  watch: boolean;
  help: boolean;
}

/** Parses `toolwright codegen` arguments; throws CodegenConfigError on a bad one. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = { check: false, watch: false, help: false };
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === undefined) return { ...args, help: true };
  if (command !== "codegen") throw new CodegenConfigError(`Unknown command '${command}'; the command is 'codegen'.\n\n${usage}`);
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
    else if (flag === "--check") args.check = noValue();
    else if (flag === "--watch" || flag === "-w") args.watch = noValue();
    else if (flag === "--help" || flag === "-h") args.help = noValue();
    else throw new CodegenConfigError(`Unknown option '${arg}'.\n\n${usage}`);
  }
  if (args.check && args.watch) throw new CodegenConfigError("--check and --watch cannot be used together: use --check in CI and --watch while editing.");
  return args;
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
): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.help) {
      out.write(`${usage}\n`);
      return 0;
    }
    const options = { project: args.project, out: args.out, runtimeImport: args.runtimeImport, cwd };
    if (args.watch) {
      watchToolSchemas(options, (event) => report(event, out, err));
      return await new Promise<number>(() => undefined);
    }
    const result = await generateToolSchemas({ ...options, check: args.check });
    const label = path.relative(cwd, result.out).split(path.sep).join("/") || result.out;
    if (result.diagnostics.length > 0) {
      for (const d of result.diagnostics) err.write(`${formatDiagnostic(d)}\n`);
      err.write(`\nFound ${result.diagnostics.length} error${result.diagnostics.length === 1 ? "" : "s"}.\n`);
      return 1;
    }
    const count = `${result.tools.length} tool${result.tools.length === 1 ? "" : "s"}`;
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

function report(event: WatchEvent, out: NodeJS.WritableStream, err: NodeJS.WritableStream): void {
  const { analysis } = event;
  if (analysis.diagnostics.length > 0) {
    for (const d of analysis.diagnostics) err.write(`${formatDiagnostic(d)}\n`);
    err.write(`Found ${analysis.diagnostics.length} error${analysis.diagnostics.length === 1 ? "" : "s"}. Watching for changes.\n`);
    return;
  }
  out.write(`${event.written ? "wrote" : "unchanged:"} generated module (${analysis.tools.length} tools, ${event.analysedFiles.length} files analysed, ${event.ms.toFixed(0)} ms). Watching for changes.\n`);
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
