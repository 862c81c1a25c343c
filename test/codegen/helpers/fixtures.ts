import * as fs from "node:fs";
import * as path from "node:path";
import { formatDiagnostic, generateToolSchemas, type GenerateToolSchemasResult } from "../../../codegen";

/** The fixture folders of a kind (`valid` or `invalid`), by name. */
export function fixtureNames(kind: "valid" | "invalid"): string[] {
  const root = path.join(__dirname, "..", "fixtures", kind);
  return fs.readdirSync(root).filter((name) => fs.statSync(path.join(root, name)).isDirectory()).sort();
}

/** The absolute path of a fixture folder. */
export function fixtureDir(kind: "valid" | "invalid", name: string): string {
  return path.join(__dirname, "..", "fixtures", kind, name);
}

/**
 * Runs codegen on a fixture folder (its tsconfig.json includes the folder's .ts files) in check
 * mode against `expected.generated.ts`: nothing is written. With UPDATE_FIXTURES=1 the expected
 * module is (re)written instead, for review before committing.
 */
export async function runFixture(kind: "valid" | "invalid", name: string): Promise<GenerateToolSchemasResult> {
  const cwd = fixtureDir(kind, name);
  const update = process.env.UPDATE_FIXTURES === "1" && kind === "valid";
  return generateToolSchemas({ cwd, project: "tsconfig.json", out: "expected.generated.ts", check: !update });
}

/** The diagnostics of a result as the CLI prints them. */
export function printed(result: GenerateToolSchemasResult): string[] {
  return result.diagnostics.map(formatDiagnostic);
}

/** The expected diagnostic lines of an invalid fixture (`expected.txt`, one per line). */
export function expectedDiagnostics(name: string): string[] {
  return fs.readFileSync(path.join(fixtureDir("invalid", name), "expected.txt"), "utf8").split("\n").filter((line) => line.trim() !== "");
}
