import { expectedDiagnostics, fixtureNames, printed, runFixture } from "./helpers/fixtures";

describe("generateToolSchemas (invalid fixtures, §3 step 5)", () => {
  it.each(fixtureNames("invalid"))("reports %s exactly", async (name) => {
    const result = await runFixture("invalid", name);
    expect(printed(result)).toEqual(expectedDiagnostics(name));
    expect(result.ok).toBe(false);
    expect(result.content).toBeUndefined();
  });
});
