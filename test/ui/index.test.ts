import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as ui from "toolwright/ui";

const root = path.join(__dirname, "..", "..");

// Runs a script in a fresh Node process from the repository root, where `toolwright/ui` resolves to the built package.
function runPackage(script: string, type: "commonjs" | "module" = "commonjs"): string {
  const args = type === "module" ? ["--input-type=module", "-e", script] : ["-e", `(async () => { ${script} })().catch((e) => { console.error(e); process.exit(1); });`];
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();
}

const runtimeNames = [
  "UIRequestError",
  "UIStreamError",
  "createUIMessageStreamResponse",
  "fromUIMessages",
  "pipeUIMessageStreamToResponse",
  "recordPauses",
  "resumableRunEvents",
  "resumeFromApproval",
  "resumeQueuedRun",
  "toUIMessageStream",
  "uiMessageStreamHeaders",
];

describe("toolwright/ui", () => {
  it("exports exactly the public runtime names", () => {
    expect(Object.keys(ui).sort()).toEqual(runtimeNames);
  });

  it("names the same exports for ES modules in the built package", () => {
    const out = runPackage(
      `
      import * as ui from "toolwright/ui";
      const { createRequire } = await import("node:module");
      const req = createRequire(process.cwd() + "/");
      const cjs = Object.keys(req("toolwright/ui")).filter((key) => key !== "__esModule").sort();
      const esm = Object.keys(ui).filter((key) => key !== "default").sort();
      console.log(JSON.stringify(cjs), JSON.stringify(esm));`,
      "module",
    );

    const [cjs, esm] = out.split(" ").map((part) => JSON.parse(part) as string[]);
    expect(cjs).toEqual(runtimeNames);
    expect(esm).toEqual(runtimeNames);
  });

  it("loads no AI SDK and no Redis client on import: it has no runtime dependency on them", () => {
    const out = runPackage(`
      require("toolwright/ui");
      const seen = new Set();
      for (const file of Object.keys(require.cache)) {
        const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
        if (m) seen.add(m[1]);
        else if (require("node:path").dirname(file) === ${JSON.stringify(path.join(root, "dist"))}) seen.add("toolwright:" + require("node:path").basename(file));
      }
      console.log([...seen].sort().join(" "));`);

    expect(out).toBe("toolwright:runtime.js toolwright:ui.js");
  });

  it("shares the error hierarchy of toolwright in the built package", () => {
    const out = runPackage(`
      const { ToolwrightError } = require("toolwright");
      const { UIRequestError, UIStreamError } = require("toolwright/ui");
      console.log(new UIRequestError(409, "x.") instanceof ToolwrightError, new UIStreamError(1024) instanceof ToolwrightError);`);

    expect(out).toBe("true true");
  });
});
