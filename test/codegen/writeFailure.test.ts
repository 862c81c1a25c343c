import { formatDiagnostic, generateToolSchemas } from "toolwright/codegen";
import { TempProject } from "./helpers/tempProject";

const tools = `import { tool } from "toolwright";
export class Tools {
  /** Echo. @param text Text. */
  @tool
  echo(text: string): string {
    return text;
  }
}
`;

describe("generateToolSchemas (TW401)", () => {
  it("reports a module it cannot write as TW401 instead of throwing", async () => {
    const project = new TempProject({ "src/tools.ts": tools, "blocked": "a file where a directory should be" });
    try {
      const result = await generateToolSchemas({ cwd: project.dir, project: "tsconfig.json", out: "blocked/tools.generated.ts" });
      expect(result.ok).toBe(false);
      expect(result.written).toBe(false);
      expect(result.diagnostics.map(formatDiagnostic)).toEqual([
        expect.stringMatching(/^blocked\/tools\.generated\.ts:1:1 - error TW401: The generated module cannot be written: ENOTDIR: not a directory, .*; make its directory writable or choose another --out\.$/),
      ]);
    } finally {
      project.dispose();
    }
  });
});
