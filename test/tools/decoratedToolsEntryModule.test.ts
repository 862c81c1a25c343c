import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const dist = path.join(__dirname, "..", "..", "dist");

// An app with one @tool method (the decorator applied by hand, as TypeScript's legacy decorators
// do) and no generated module, started from an .mjs or a .cjs file in a fresh Node process on the
// built package: the message it fails with.
function missingModuleMessage(extension: "mjs" | "cjs"): string {
  const [toolwright, testing] = [path.join(dist, "toolwright.js"), path.join(dist, "testing.js")].map((file) => JSON.stringify(file));
  const imports =
    extension === "mjs"
      ? `import { Agent, tool } from ${toolwright}; import { ScriptedChatGenerator } from ${testing};`
      : `const { Agent, tool } = require(${toolwright}); const { ScriptedChatGenerator } = require(${testing});`;
  const source = `${imports}
    class SupportTools { search(query) { return query; } }
    tool(SupportTools.prototype, "search", Object.getOwnPropertyDescriptor(SupportTools.prototype, "search"));
    try {
      new Agent({ chatGenerator: new ScriptedChatGenerator([]), tools: [new SupportTools()] });
    } catch (error) {
      console.log(error.message);
    }`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwright-entry-"));
  try {
    const main = path.join(dir, `main.${extension}`);
    fs.writeFileSync(main, source);
    return execFileSync(process.execPath, [main], { encoding: "utf8" }).trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("decoratedTools", () => {
  it("suggests the import that works in the app's module system: with .js from an ES module, without an extension from CommonJS", () => {
    expect(missingModuleMessage("mjs")).toBe(
      'SupportTools.search is a @tool method with no generated schema: run `npx toolwright codegen` and import the generated module (for example import "./tools.generated.js") before creating the Agent. No generated module has been imported yet.',
    );
    expect(missingModuleMessage("cjs")).toBe(
      'SupportTools.search is a @tool method with no generated schema: run `npx toolwright codegen` and import the generated module (for example import "./tools.generated") before creating the Agent. No generated module has been imported yet.',
    );
  });
});
