import { type CodegenOptions, resolveOptions } from "./config";
import { type Diagnostic, formatDiagnostic, writeFailure } from "./diagnostics";
import { readIfExists, writeIfChanged } from "./emit/writeIfChanged";
import { Analyzer } from "./generate";
import type { ToolModel } from "./model";
import { loadProject } from "./project";
import { decodeToolData } from "../src/tools/encodedToolSchemas";

/** Options of `generateToolSchemas`: the CLI's options, plus `check`. */
export interface GenerateToolSchemasOptions extends CodegenOptions {
  /** Write nothing; report whether the file on disk is up to date (`toolwright codegen --check`). */
  check?: boolean;
}

/** What `generateToolSchemas` did. */
export interface GenerateToolSchemasResult {
  /** True when there are no diagnostics and (with `check`) the file is up to date. */
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
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
  const analysis = new Analyzer(project, resolved).analyse();
  const base = { diagnostics: analysis.diagnostics, tools: analysis.tools, out: resolved.out, content: analysis.content };
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
 * The parts are the entry's keys, plus `parameter types` for the type check after the entries.
 */
export function staleTools(existing: string | undefined, generated: string, tools: readonly ToolModel[]): string[] {
  if (existing === undefined) return tools.map((t) => t.name);
  const before = entries(existing);
  const after = entries(generated);
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

// Each entry by tool name, as its fields (key → JSON text, `owner` → the owner's local name) and
// the parameter-type check lines, which end in a `// Class.method` comment naming the entry's tool.
function entries(text: string): Map<string, Map<string, string>> {
  const byName = new Map<string, Map<string, string>>();
  const byLabel = new Map<string, Map<string, string>>();
  const found = text.includes(dataStart) ? encodedEntries(text) : literalEntries(text);
  for (const { label, fields } of found) {
    byName.set(/^"(.*)"$/.exec(fields.get("name") ?? "")?.[1] ?? "", fields);
    byLabel.set(label, fields);
  }
  for (const line of text.split("\n")) {
    const match = /^\(\{\} as .* \/\/ (.+)$/.exec(line);
    const fields = match && byLabel.get(match[1]!);
    if (fields) fields.set("parameter types", `${fields.get("parameter types") ?? ""}${line}\n`);
  }
  return byName;
}

const dataStart = "    data: String.raw`";

interface FoundEntry {
  readonly label: string;
  readonly fields: Map<string, string>;
}

// The current form: owner lines `      (): unknown => Owner, // label`, then the data as JSON.
function encodedEntries(text: string): FoundEntry[] {
  const owners = [...text.matchAll(/^ {6}\(\): unknown => (\S+), \/\/ (.+)$/gm)].map((m) => ({ owner: m[1]!, label: m[2]! }));
  const start = text.indexOf(dataStart) + dataStart.length;
  let tools: ReturnType<typeof decodeToolData>;
  try {
    tools = decodeToolData(text.slice(start, text.indexOf("`,\n", start)), { module: "", command: "" });
  } catch {
    return [];
  }
  return tools.map((tool, i) => {
    const fields = new Map<string, string>([["kind", JSON.stringify(tool.kind)], ["owner", owners[i]?.owner ?? ""]]);
    for (const [k, v] of Object.entries(tool)) if (k !== "kind") fields.set(k, JSON.stringify(v));
    return { label: owners[i]?.label ?? "", fields };
  });
}

// The form of modules generated before the JSON data: one object literal per entry, values as
// (indented) JSON; read into the same compact JSON text, so that only real changes show.
function literalEntries(text: string): FoundEntry[] {
  return splitEntries(text).map((entry) => {
    const fields = new Map<string, string>();
    for (const field of entry.split(/\n(?= {4}[A-Za-z]+: )/)) {
      const match = /^ {4}([A-Za-z]+): ([\s\S]*?),?$/.exec(field);
      if (match) fields.set(match[1]!, match[2]!);
    }
    const member = /^"([^"]*)"/.exec(fields.get("member") ?? "")?.[1] ?? "";
    const owner = /^\(\) => (.*)$/.exec(fields.get("owner") ?? "")?.[1] ?? "";
    for (const [k, v] of fields) if (k !== "owner" && k !== "member") fields.set(k, compactJson(v));
    fields.set("owner", owner);
    fields.set("member", JSON.stringify(member));
    return { label: fields.get("kind") === '"function"' ? owner : `${owner}.${member}`, fields };
  });
}

function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function splitEntries(text: string): string[] {
  const start = text.indexOf("export const toolSchemas");
  if (start === -1) return [];
  return text.slice(start).split(/\n {2}\{\n/).slice(1).map((chunk) => chunk.split(/\n {2}\},\n/)[0]!.replace(/\n {2}\},$/, ""));
}

export { formatDiagnostic };
