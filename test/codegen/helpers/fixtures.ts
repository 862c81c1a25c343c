import * as fs from "node:fs";
import * as path from "node:path";
import { Project } from "ts-morph";
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

/**
 * One program holding every fixture of a kind (with the options of tsconfig.fixture.json, which
 * each fixture's tsconfig.json extends). Loading the standard library once instead of once per
 * fixture is what keeps these tests fast; each fixture is still analysed on its own files only.
 */
export function fixtureProject(kind: Kind): Project {
  let project = projects.get(kind);
  if (!project) {
    project = new Project({ tsConfigFilePath: path.join(fixturesRoot, "tsconfig.fixture.json"), skipAddingFilesFromTsConfig: true });
    for (const name of fixtureNames(kind)) project.addSourceFilesAtPaths(path.join(fixtureDir(kind, name), "**", "*.ts"));
    projects.set(kind, project);
  }
  return project;
}

/**
 * Runs codegen on a fixture folder as `toolwright codegen --project tsconfig.json --out
 * expected.generated.ts` run in that folder would, comparing with the expected module instead of
 * writing it. With UPDATE_FIXTURES=1 the expected module is (re)written, for review.
 */
export async function runFixture(kind: Kind, name: string): Promise<FixtureResult> {
  const cwd = fixtureDir(kind, name);
  const options = resolveOptions({ cwd, project: "tsconfig.json", out: "expected.generated.ts" });
  const project = fixtureProject(kind);
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
