import { expectedDiagnostics, fixtureNames, printed, runFixture } from "./helpers/fixtures";

describe("generateToolSchemas (invalid fixtures: every problem reported at once)", () => {
  it.each(fixtureNames("invalid"))("reports %s exactly", async (name) => {
    const result = await runFixture("invalid", name);
    expect(printed(result)).toEqual(expectedDiagnostics(name));
    expect(result.ok).toBe(false);
    expect(result.content).toBeUndefined();
  });

  it("has an invalid fixture for every diagnostic code a source file can cause", () => {
    const codes = ["TW101", "TW102", "TW103", "TW104", "TW105", "TW106", "TW107", "TW201", "TW202", "TW203", "TW204", "TW301", "TW302", "TW303"];
    const covered = new Set(fixtureNames("invalid").flatMap((name) => expectedDiagnostics(name).map((line) => / - error (TW\d+): /.exec(line)?.[1])));
    expect(codes.filter((code) => !covered.has(code))).toEqual([]);
    for (const code of codes) expect(fixtureNames("invalid").some((name) => name.startsWith(`${code}-`))).toBe(true);
  });
});
