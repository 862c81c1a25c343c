import { compileWithTsc, fixtureNames, fixtureProject, hasOwnOptions, printed, runFixture } from "./helpers/fixtures";

describe("generateToolSchemas (valid fixtures, the README type mapping)", () => {
  it.each(fixtureNames("valid"))("generates the expected module for %s", async (name) => {
    const result = await runFixture("valid", name);
    expect(printed(result)).toEqual([]);
    expect(result.stale).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("type-checks every expected generated module with its input", () => {
    const project = fixtureProject("valid");
    const errors = project.getPreEmitDiagnostics().map((d) => `${d.getSourceFile()?.getFilePath()}: ${d.getMessageText().toString()}`);
    expect(errors).toEqual([]);
  });

  it.each(fixtureNames("valid").filter((name) => hasOwnOptions("valid", name)))("type-checks %s with tsc under its own compiler options and package.json", (name) => {
    expect(compileWithTsc("valid", name)).toEqual([]);
  });
});
