import * as fs from "node:fs";
import * as path from "node:path";
import type { HandWorkItem } from "../src/haystack/haystackImportTypes";
import { CodegenConfigError } from "./configError";

/** The usage of `toolwright import-haystack`. */
export const importHaystackUsage = `Usage: toolwright import-haystack <agent.yaml> [--out <dir>] [--component <name>] [--force]

Converts a Haystack Agent YAML (Agent.to_dict(), 2.x or main, alone or as a pipeline component) into
<dir>/agent.yaml (a toolwright definition) and <dir>/tools.ts (stubs of the Python tools), and lists
what needs hand work.

Options:
  --out <dir>          where to write agent.yaml and tools.ts (default: toolwright-agent)
  --component <name>   in a pipeline YAML, the Agent component to convert (default: its only Agent)
  --force              overwrite agent.yaml and tools.ts if they exist
  --help               show this help`;

interface ImportArgs {
  readonly input?: string;
  readonly out: string;
  readonly component?: string;
  readonly force: boolean;
  readonly help: boolean;
}

/** Parses `toolwright import-haystack` arguments (after the command); throws CodegenConfigError on a bad one. */
export function parseImportArgs(argv: readonly string[]): ImportArgs {
  let input: string | undefined;
  let out = "toolwright-agent";
  let component: string | undefined;
  let force = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (!v || v.startsWith("--")) throw new CodegenConfigError(`${flag} needs a value.\n\n${importHaystackUsage}`);
      return v;
    };
    if (flag === "--out" || flag === "-o") out = value();
    else if (flag === "--component") component = value();
    else if (flag === "--force" && inline === undefined) force = true;
    else if ((flag === "--help" || flag === "-h") && inline === undefined) help = true;
    else if (!flag.startsWith("-") && input === undefined) input = flag;
    else throw new CodegenConfigError(`${flag.startsWith("-") ? `Unknown option '${arg}'` : `One YAML file at a time: '${input}' and '${arg}' were given`}.\n\n${importHaystackUsage}`);
  }
  if (!help && input === undefined) throw new CodegenConfigError(`import-haystack needs the Haystack YAML file: toolwright import-haystack agent.yaml.\n\n${importHaystackUsage}`);
  return { input, out, component, force, help };
}

/**
 * Runs `toolwright import-haystack`: 0 when converted (the hand work listed on stdout), 1 when the
 * YAML is no Haystack Agent or is refused (every problem on stderr), 2 for bad arguments or files
 * that exist (without --force). Paths are resolved against `cwd`.
 */
export async function runImportHaystack(argv: readonly string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream, cwd: string): Promise<number> {
  const args = parseImportArgs(argv);
  if (args.help) {
    out.write(`${importHaystackUsage}\n`);
    return 0;
  }
  const input = path.resolve(cwd, args.input!);
  const label = path.relative(cwd, input).split(path.sep).join("/") || input;
  let text: string;
  try {
    text = fs.readFileSync(input, "utf8");
  } catch (error) {
    throw new CodegenConfigError(`${label} could not be read: ${(error as Error).message}`);
  }
  const dir = path.resolve(cwd, args.out);
  const targets = [path.join(dir, "agent.yaml"), path.join(dir, "tools.ts")];
  if (targets.includes(input)) throw new CodegenConfigError(`${label} is the YAML being converted; choose another --out directory.`);
  const existing = targets.filter((target) => fs.existsSync(target)).map((target) => relative(cwd, target));
  if (existing.length > 0 && !args.force) throw new CodegenConfigError(`${existing.join(" and ")} already exist${existing.length === 1 ? "s" : ""}; pass --force to overwrite, or choose another --out directory (tools.ts may hold ported code).`);
  const { importHaystackAgent, HaystackImportError, definitionToYaml, DefinitionError } = loadImporter();
  let result: ReturnType<typeof importHaystackAgent>;
  try {
    result = importHaystackAgent(text, { file: label, component: args.component });
  } catch (error) {
    if (error instanceof HaystackImportError) {
      for (const problem of error.problems) err.write(`${problem.message}\n`);
      err.write(`\nFound ${error.problems.length === 1 ? "1 problem" : `${error.problems.length} problems`}; nothing was written.\n`);
      return 1;
    }
    if (error instanceof DefinitionError) {
      err.write(`${error.message}\nNothing was written.\n`);
      return 1;
    }
    throw error;
  }
  fs.mkdirSync(dir, { recursive: true });
  const comment = `Converted by toolwright import-haystack from ${label}.\nyaml-language-server: $schema=./node_modules/toolwright/agent-definition.schema.json`;
  fs.writeFileSync(targets[0]!, definitionToYaml(result.definition, { comment }));
  fs.writeFileSync(targets[1]!, result.toolsModule);
  out.write(`wrote ${relative(cwd, targets[0]!)} and ${relative(cwd, targets[1]!)}.\n`);
  out.write(handWorkText(result.handWork, label));
  return 0;
}

/** The hand-work list as the command prints it: a count, then `file:line:col path: message` per item. */
export function handWorkText(items: readonly HandWorkItem[], file: string): string {
  if (items.length === 0) return "Nothing needs hand work.\n";
  const lines = items.map((item) => `  ${file}:${item.line}:${item.column} ${item.path}: ${item.message}`);
  return `Hand work (${items.length === 1 ? "1 item" : `${items.length} items`}):\n${lines.join("\n")}\n`;
}

function relative(cwd: string, file: string): string {
  return path.relative(cwd, file).split(path.sep).join("/") || file;
}

// The importer reads YAML with the `yaml` package, an optional peer dependency: required only here.
function loadImporter() {
  try {
    require.resolve("yaml");
  } catch {
    throw new CodegenConfigError("toolwright import-haystack needs the yaml package, which is not installed; install it: npm i -D yaml.");
  }
  return {
    ...(require("../src/haystack/importHaystackAgent") as typeof import("../src/haystack/importHaystackAgent")),
    ...(require("../src/haystack/haystackImportError") as typeof import("../src/haystack/haystackImportError")),
    ...(require("../src/yaml/writeYaml") as typeof import("../src/yaml/writeYaml")),
    ...(require("../src/errors") as typeof import("../src/errors")),
  };
}
