import { main, reportWatchEvent } from "../../codegen/cli";
import { progressLine } from "../../codegen/progressLine";
import { watchToolSchemas } from "../../codegen/watch";
import { captured, TempProject } from "./helpers/tempProject";

const supportTools = `import { tool } from "toolwright";

export class SupportTools {
  /** Search the ticket archive. */
  @tool
  search(query: string): string[] {
    return [query];
  }
}
`;

// A captured stream that says it is a terminal.
function terminal(): ReturnType<typeof captured> & { isTTY: true } {
  return Object.assign(captured(), { isTTY: true as const });
}

describe("progressLine", () => {
  it("writes nothing when the stream is not a terminal", () => {
    const out = captured();
    const line = progressLine(out);
    line.update({ files: 0, totalFiles: 2, tools: 0 });
    line.update({ files: 2, totalFiles: 2, tools: 3 });
    line.clear();
    expect(out.text).toBe("");
  });

  it("rewrites one line on a terminal at most every everyMs, always for the last file, and erases it", () => {
    const out = terminal();
    let clock = 0;
    const line = progressLine(out, () => clock, 100);
    line.update({ files: 0, totalFiles: 3, tools: 0 });
    clock = 50;
    line.update({ files: 1, totalFiles: 3, tools: 1 });
    clock = 1250;
    line.update({ files: 2, totalFiles: 3, tools: 1 });
    clock = 1300;
    line.update({ files: 3, totalFiles: 3, tools: 2 });
    line.clear();
    expect(out.text).toBe(
      "\r\x1b[Ktoolwright codegen: 0/3 files, 0 tools, 0.0 s" +
        "\r\x1b[Ktoolwright codegen: 2/3 files, 1 tool, 1.3 s" +
        "\r\x1b[Ktoolwright codegen: 3/3 files, 2 tools, 1.3 s" +
        "\r\x1b[K",
    );
  });
});

describe("main (progress)", () => {
  let project: TempProject;
  beforeEach(() => {
    project = new TempProject({ "src/supportTools.ts": supportTools });
  });
  afterEach(() => project.dispose());

  it("shows files, tools and elapsed time on a terminal, then erases them before the result", async () => {
    const out = terminal();
    expect(await main(["codegen"], out, captured(), project.dir)).toBe(0);
    expect(out.text).toMatch(
      /^\r\x1b\[Ktoolwright codegen: 0\/(\d+) files, 0 tools, \d+\.\d s(\r\x1b\[Ktoolwright codegen: \d+\/\1 files, [01] tools?, \d+\.\d s)*\r\x1b\[Ktoolwright codegen: \1\/\1 files, 1 tool, \d+\.\d s\r\x1b\[Kwrote src\/tools\.generated\.ts \(1 tool\)\.\n$/,
    );
  });

  it("shows no progress when stdout is not a terminal", async () => {
    const out = captured();
    expect(await main(["codegen"], out, captured(), project.dir)).toBe(0);
    expect(out.text).toBe("wrote src/tools.generated.ts (1 tool).\n");
  });
});

describe("reportWatchEvent", () => {
  it("starts each --watch line with the local time and names the generated module", () => {
    const project = new TempProject({ "src/supportTools.ts": supportTools });
    const watcher = watchToolSchemas({ cwd: project.dir }, () => undefined, false);
    try {
      const at = new Date(2026, 0, 2, 9, 5, 7);
      const out = captured();
      const err = captured();
      const written = { ...watcher.initial, analysedFiles: ["a", "b"], ms: 41.4 };
      reportWatchEvent(written, "src/tools.generated.ts", out, err, at);
      expect(out.text).toBe("[09:05:07] wrote src/tools.generated.ts (1 tool, 2 files analysed, 41 ms). Watching for changes.\n");

      project.edit("src/supportTools.ts", "search(query: string)", "search(query: unknown)");
      const failed = { ...watcher.regenerate([project.path("src/supportTools.ts")]), ms: 12 };
      reportWatchEvent(failed, "src/tools.generated.ts", out, err, at);
      expect(err.text).toBe(
        "src/supportTools.ts:6:10 - error TW302: SupportTools.search(query) is 'unknown', which gives the model no schema; give it a type, or add @asType query any to the method's JSDoc to accept any JSON value.\n" +
          "[09:05:07] Found 1 error; src/tools.generated.ts was left as it was. Watching for changes.\n",
      );
    } finally {
      watcher.close();
      project.dispose();
    }
  });
});
