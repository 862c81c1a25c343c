import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "../..");

describe("checkDocBlocks", () => {
  it("names the Markdown file, the line and the TypeScript error of each block that does not compile, and checks only ts blocks at the top level of fences", () => {
    // Against the built package (dist/), as an app imports it: `npm test` builds first.
    const run = spawnSync(process.execPath, [".ci/checkDocBlocks.mjs", "--out", "dist/doc-blocks-test", join("test", "docs", "fixtures", "blocks.md")], { cwd: root, encoding: "utf8" });
    expect(run.stdout).toBe(
      "test/docs/fixtures/blocks.md:23: TS2322: Type 'string | undefined' is not assignable to type 'number'. Type 'undefined' is not assignable to type 'number'. (block at line 21)\n" +
        "1 type error(s) in the TypeScript blocks of the docs.\n",
    );
    expect(run.status).toBe(1);
  });
});
