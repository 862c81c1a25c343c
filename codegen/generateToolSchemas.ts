import { type CodegenOptions, resolveOptions } from "./config";
import { type Diagnostic, formatDiagnostic, writeFailure } from "./diagnostics";
import { readIfExists, writeIfChanged } from "./emit/writeIfChanged";
import { type AnalysisProgress, Analyzer } from "./generate";
import type { ToolModel } from "./model";
import { loadProject } from "./project";
import { decodeToolData } from "../src/tools/encodedToolSchemas";

/** Options of `generateToolSchemas`: the CLI's options, plus `check`. */
export interface GenerateToolSchemasOptions extends CodegenOptions {
  /** Write nothing; report whether the file on disk is up to date (`toolwright codegen --check`). */
  check?: boolean;
  /** Hears after each file how far the analysis is (the CLI shows it on a terminal). */
  onProgress?: (progress: AnalysisProgress) => void;
}

/** What `generateToolSchemas` did. */
export interface GenerateToolSchemasResult {
  /** True when there are no diagnostics and (with `check`) the file is up to date. */
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /** Warnings: printed, never a reason for `ok` to be false. */
  readonly warnings: readonly Diagnostic[];
  /** The tools found, in the order they are emitted. */
  readonly tools: readonly ToolModel[];
  /** The generated module's absolute path. */
  readonly out: string;
  /** True when the file was (re)written. */
  readonly written: boolean;
  /** With `check`: the names of tools whose entries differ from the file on disk, added or removed. */
  readonly stale: readonly string[];
  /** The generated text (undefined when there are diagnostics). */
  readonly content: string | undefined;
}

/**
 * Runs the build step: analyses the TypeScript program and writes the generated module (only
 * when its content changes). With `check`, writes nothing and reports which tools are stale.
 *
 * @example
 * const result = await generateToolSchemas({ project: "tsconfig.json", out: "src/tools.generated.ts" });
 * if (!result.ok) for (const d of result.diagnostics) console.error(formatDiagnostic(d));
 */
export async function generateToolSchemas(options: GenerateToolSchemasOptions = {}): Promise<GenerateToolSchemasResult> {
  const resolved = resolveOptions(options);
  const project = loadProject(resolved.project);
  const analysis = new Analyzer(project, resolved).analyse(undefined, options.onProgress);
  const base = { diagnostics: analysis.diagnostics, warnings: analysis.warnings, tools: analysis.tools, out: resolved.out, content: analysis.content };
  if (analysis.content === undefined) return { ...base, ok: false, written: false, stale: [] };
  if (options.check) {
    const stale = staleTools(readIfExists(resolved.out), analysis.content, analysis.tools);
    return { ...base, ok: stale.length === 0 && readIfExists(resolved.out) === analysis.content, written: false, stale };
  }
  try {
    return { ...base, ok: true, written: writeIfChanged(resolved.out, analysis.content), stale: [] };
  } catch (error) {
    return { ...base, ok: false, written: false, stale: [], diagnostics: [writeFailure(resolved.cwd, resolved.out, error)] };
  }
}

/**
 * Names the tools whose generated entries differ between the file on disk and the new text, and
 * what differs: `close_ticket (changed: parameters, schema)`, `search (new)`, `find (removed)`.
 * The parts are the entry's keys, plus `parameter types` for the tool's type check. A module in a
 * format this version does not read has every tool changed (`module format`).
 */
export function staleTools(existing: string | undefined, generated: string, tools: readonly ToolModel[]): string[] {
  if (existing === undefined) return tools.map((t) => t.name);
  const before = entries(existing);
  const after = entries(generated)!;
  if (!before) return [...after.keys()].map((name) => `${name} (changed: module format)`);
  const stale: string[] = [];
  for (const [name, fields] of after) {
    const old = before.get(name);
    if (!old) {
      stale.push(`${name} (new)`);
      continue;
    }
    const keys = [...new Set([...fields.keys(), ...old.keys()])];
    const changed = keys.filter((k) => fields.get(k) !== old.get(k));
    if (changed.length > 0) stale.push(`${name} (changed: ${changed.join(", ")})`);
  }
  for (const name of before.keys()) if (!after.has(name)) stale.push(`${name} (removed)`);
  return stale;
}

const dataStart = "    data: String.raw`";
const checksStart = "\n// A type error below means";

// Each entry by tool name, as its fields (key → JSON text, `owner` → the owner's local name) and
// its check lines, which end in a `// Class.method` comment naming the tool; undefined when the
// module is not in the current format.
function entries(text: string): Map<string, Map<string, string>> | undefined {
  const owners = [...text.matchAll(/^ {6}\(\): unknown => (\S+),$/gm)].map((m) => m[1]!);
  const start = text.indexOf(dataStart);
  if (start === -1) return undefined;
  let decoded: ReturnType<typeof decodeToolData>;
  try {
    decoded = decodeToolData(text.slice(start + dataStart.length, text.indexOf("`,\n", start)), { module: "", command: "" });
  } catch {
    return undefined;
  }
  const byName = new Map<string, Map<string, string>>();
  const byLabel = new Map<string, Map<string, string>>();
  decoded.forEach((tools, i) => {
    const owner = owners[i] ?? "";
    for (const tool of tools) {
      const fields = new Map<string, string>([["owner", owner]]);
      for (const [k, v] of Object.entries(tool)) fields.set(k, JSON.stringify(v));
      byName.set(tool.name, fields);
      byLabel.set(tool.kind === "function" ? owner : `${owner}.${tool.member}`, fields);
    }
  });
  const checks = text.slice(text.indexOf(checksStart) + 1);
  for (const match of checks.matchAll(/^ {2}.* \/\/ (.+)$/gm)) {
    const fields = byLabel.get(match[1]!);
    fields?.set("parameter types", `${fields.get("parameter types") ?? ""}${match[0]}\n`);
  }
  return byName;
}

export { formatDiagnostic };
