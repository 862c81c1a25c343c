import * as fs from "node:fs";
import * as path from "node:path";
import { Project } from "ts-morph";
import * as ts from "typescript";
import { resolveOptions } from "../../../codegen/config";
import { type Diagnostic, formatDiagnostic } from "../../../codegen/diagnostics";
import { readIfExists } from "../../../codegen/emit/writeIfChanged";
import { Analyzer } from "../../../codegen/generate";
import type { ToolModel } from "../../../codegen/model";
import { staleTools } from "../../../codegen/generateToolSchemas";

type Kind = "valid" | "invalid";

/** What running codegen on one fixture gave. */
export interface FixtureResult {
  readonly ok: boolean;
  readonly diagnostics: readonly Diagnostic[];
  readonly stale: readonly string[];
  readonly content: string | undefined;
  readonly tools: readonly ToolModel[];
}

const fixturesRoot = path.join(__dirname, "..", "fixtures");

/** The fixture folders of a kind, by name. */
export function fixtureNames(kind: Kind): string[] {
  const root = path.join(fixturesRoot, kind);
  return fs.readdirSync(root).filter((name) => fs.statSync(path.join(root, name)).isDirectory()).sort();
}

/** The absolute path of a fixture folder. */
export function fixtureDir(kind: Kind, name: string): string {
  return path.join(fixturesRoot, kind, name);
}

const projects = new Map<Kind, Project>();
const ownProjects = new Map<string, Project>();

/**
 * True for a fixture whose tsconfig.json sets compilerOptions of its own (module, moduleResolution,
 * verbatimModuleSyntax, …): it is compiled as its own program, under those options and its own
 * package.json, rather than in the shared one.
 */
export function hasOwnOptions(kind: Kind, name: string): boolean {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(fixtureDir(kind, name), "tsconfig.json"), "utf8")) as { compilerOptions?: object };
  return tsconfig.compilerOptions !== undefined;
}

/**
 * One program holding every fixture of a kind (with the options of tsconfig.fixture.json, which
 * each fixture's tsconfig.json extends). Loading the standard library once instead of once per
 * fixture is what keeps these tests fast; each fixture is still analysed on its own files only.
 * Fixtures with options of their own are left out (see `fixturePrograms`).
 */
export function fixtureProject(kind: Kind): Project {
  let project = projects.get(kind);
  if (!project) {
    project = new Project({ tsConfigFilePath: path.join(fixturesRoot, "tsconfig.fixture.json"), skipAddingFilesFromTsConfig: true });
    for (const name of fixtureNames(kind)) if (!hasOwnOptions(kind, name)) project.addSourceFilesAtPaths(path.join(fixtureDir(kind, name), "**", "*.ts"));
    projects.set(kind, project);
  }
  return project;
}

/** The program a fixture is analysed and type-checked in: the shared one, or its own. */
export function programOf(kind: Kind, name: string): Project {
  if (!hasOwnOptions(kind, name)) return fixtureProject(kind);
  const dir = fixtureDir(kind, name);
  let project = ownProjects.get(dir);
  if (!project) ownProjects.set(dir, (project = new Project({ tsConfigFilePath: path.join(dir, "tsconfig.json") })));
  return project;
}

/**
 * What `tsc --noEmit -p <fixture>/tsconfig.json` reports, as `file(line,col): message`, with the
 * compiler's own host: ts-morph's in-memory host does not read package.json "type", so it would
 * treat an ES module as CommonJS and miss errors such as TS2835 (missing import extension).
 */
export function compileWithTsc(kind: Kind, name: string): string[] {
  const dir = fixtureDir(kind, name);
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`${dir}/tsconfig.json cannot be read.`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(dir, d.file.fileName)}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : "tsconfig";
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

/**
 * Runs codegen on a fixture folder as `toolwright codegen --project tsconfig.json --out
 * expected.generated.ts` run in that folder would, comparing with the expected module instead of
 * writing it. With UPDATE_FIXTURES=1 the expected module is (re)written, for review.
 */
export async function runFixture(kind: Kind, name: string): Promise<FixtureResult> {
  const cwd = fixtureDir(kind, name);
  const options = resolveOptions({ cwd, project: "tsconfig.json", out: "expected.generated.ts" });
  const project = programOf(kind, name);
  const files = project.getSourceFiles().filter((file) => file.getFilePath().startsWith(cwd + path.sep));
  const analysis = new Analyzer(project, options).analyse(files);
  const existing = readIfExists(options.out);
  if (analysis.content !== undefined && process.env.UPDATE_FIXTURES === "1" && kind === "valid") fs.writeFileSync(options.out, analysis.content);
  const stale = analysis.content === undefined ? [] : staleTools(existing, analysis.content, analysis.tools);
  return { ok: analysis.content !== undefined && (existing === analysis.content || process.env.UPDATE_FIXTURES === "1"), diagnostics: analysis.diagnostics, stale, content: analysis.content, tools: analysis.tools };
}

/** The diagnostics of a result as the CLI prints them. */
export function printed(result: FixtureResult): string[] {
  return result.diagnostics.map(formatDiagnostic);
}

/** The expected diagnostic lines of an invalid fixture (`expected.txt`, one per line). */
export function expectedDiagnostics(name: string): string[] {
  return fs.readFileSync(path.join(fixtureDir("invalid", name), "expected.txt"), "utf8").split("\n").filter((line) => line.trim() !== "");
}
