import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(__dirname, "../..");
const fixture = join("test", "docs", "fixtures", "blocks.md");

function check(...flags: string[]) {
  // Against the built package (dist/), as an app imports it: `npm test` builds first.
  return spawnSync(process.execPath, [".ci/checkDocBlocks.mjs", ...flags, "--examples", "test/docs/fixtures/examples/", fixture], { cwd: root, encoding: "utf8" });
}

describe("checkDocBlocks", () => {
  it("names each block that differs from its example region, names no example, or names one that is missing or outside the examples, and each type error of the examples", () => {
    const run = check();
    expect(run.stdout).toBe(
      [
        "test/docs/fixtures/blocks.md:19: the block differs from test/docs/fixtures/examples/guide.ts#inner (line 9): the example has `const length: number = text;`, the block `const length = text.length;`; run `npm run docs:sync` to copy the example into the docs.",
        "test/docs/fixtures/blocks.md:24: this TypeScript block does not come from an example: put its code in a `// #region <name>` of a file under examples/ that runs, and mark the block with `<!-- example: examples/<file>#<name> -->` on the line above the fence.",
        "test/docs/fixtures/blocks.md:29: 'test/docs/fixtures/examples/guide.ts' has no region 'missing' (it has: imports, inner, body); add `// #region missing` … `// #endregion` around the code.",
        "test/docs/fixtures/blocks.md:34: the block's example 'src/index.ts' is not a file under test/docs/fixtures/examples/; name a path from the repository root, like examples/docs/state/main.ts.",
        "test/docs/fixtures/examples/guide.ts:9:9: TS2322: Type 'string | undefined' is not assignable to type 'number'. Type 'undefined' is not assignable to type 'number'.",
        "5 problem(s) in the TypeScript blocks of the docs.",
        "",
      ].join("\n"),
    );
    expect(run.status).toBe(1);
  });

  it("with --write, copies each region into its block, keeping the block's indentation, and leaves other text alone", () => {
    const before = readFileSync(join(root, fixture), "utf8");
    try {
      check("--write");
      const after = readFileSync(join(root, fixture), "utf8");
      expect(after).toBe(before.replace("   const length = text.length;", "   const length: number = text;"));
    } finally {
      writeFileSync(join(root, fixture), before);
    }
  });
});
