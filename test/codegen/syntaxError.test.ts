import { main } from "../../codegen/cli";
import { formatDiagnostic } from "../../codegen/diagnostics";
import { watchToolSchemas } from "../../codegen/watch";
import { captured, supportToolsSource, TempProject } from "./helpers/tempProject";

const supportTools = supportToolsSource;

// The close method's body loses its closing parenthesis: TypeScript reports TS1005 at the `;`.
const broken = ["    return ticketId;", "    return String(ticketId;"] as const;
const expected =
  "src/supportTools.ts:13:27 - error TW108: Syntax error (TS1005: ')' expected), so codegen cannot read this file's tools and leaves the generated module as it was; fix the syntax error (codegen parses with TypeScript 5.9.2, the version ts-morph bundles: if your compiler accepts this syntax, install a newer ts-morph).";

async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const out = captured();
  const err = captured();
  const code = await main(argv, out, err, cwd);
  return { code, out: out.text, err: err.text };
}

describe("Analyzer (syntax errors)", () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject({ "src/supportTools.ts": supportTools });
  });
  afterEach(() => project.dispose());

  it("reports a syntax error with file:line:col, exits 1 and leaves the generated module as it was", async () => {
    expect((await run(["codegen"], project.dir)).code).toBe(0);
    const before = project.read("src/tools.generated.ts");
    project.edit("src/supportTools.ts", ...broken);
    expect(await run(["codegen"], project.dir)).toEqual({ code: 1, out: "", err: `${expected}\n\nFound 1 error.\n` });
    expect(project.read("src/tools.generated.ts")).toBe(before);
  });

  it("reports the syntax error in --watch and keeps the previous module, then writes it again once fixed", () => {
    const watcher = watchToolSchemas({ cwd: project.dir }, () => undefined, false);
    try {
      expect(watcher.initial.written).toBe(true);
      const before = project.read("src/tools.generated.ts");
      project.edit("src/supportTools.ts", ...broken);
      const failed = watcher.regenerate([project.path("src/supportTools.ts")]);
      expect(failed.analysis.diagnostics.map(formatDiagnostic)).toEqual([expected]);
      expect(failed.written).toBe(false);
      expect(project.read("src/tools.generated.ts")).toBe(before);
      project.edit("src/supportTools.ts", broken[1], broken[0]);
      const fixed = watcher.regenerate([project.path("src/supportTools.ts")]);
      expect(fixed.analysis.diagnostics).toEqual([]);
      expect(fixed.analysis.tools.map((t) => t.name)).toEqual(["search", "close_ticket"]);
      expect(project.read("src/tools.generated.ts")).toBe(before);
    } finally {
      watcher.close();
    }
  });
});
