import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { loadCodegen, main, parseArgs } from "../../codegen/cli";
import { CodegenConfigError } from "../../codegen/project";
import { captured, TempProject, tempTsconfig } from "./helpers/tempProject";

const usage = `Usage: toolwright codegen [options]
       toolwright import-haystack <agent.yaml> [--out <dir>] [--component <name>] [--force]
       toolwright --version

Generates the JSON Schemas of every @tool method and defineTool function into one module.

Options:
  --project <file>         tsconfig.json of the program to analyse (default: tsconfig.json)
  --out <file>             the generated module (default: src/tools.generated.ts)
  --runtime-import <name>  module the generated code imports the runtime from (default: toolwright)
  --import-extension <js|ts|none>
                           how relative imports in the generated module end (default: what the
                           tsconfig needs: js for node16/nodenext, ts with allowImportingTsExtensions
                           or rewriteRelativeImportExtensions, else none)
  --check                  write nothing; exit 1 when the generated module is out of date
  --watch                  regenerate when a .ts file changes
  --help                   show this help
  --version                print the version of toolwright

Options can also be set under a "toolwright" key in package.json:
{ "project": …, "out": …, "runtimeImport": …, "importExtension": … }.`;

const supportTools = `import { tool } from "toolwright";

export class SupportTools {
  /**
   * Search the ticket archive.
   * @param query Words to look for.
   */
  @tool
  search(query: string): string[] {
    return [query];
  }
}
`;

const command = "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts";

function parseError(argv: string[]): CodegenConfigError {
  try {
    parseArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(CodegenConfigError);
    return error as CodegenConfigError;
  }
  throw new Error(`parseArgs(${JSON.stringify(argv)}) did not throw`);
}

describe("parseArgs", () => {
  it("reads every flag with a separate value", () => {
    expect(parseArgs(["codegen", "--project", "app/tsconfig.json", "--out", "app/gen.ts", "--runtime-import", "toolwright/runtime", "--check"])).toEqual({
      project: "app/tsconfig.json",
      out: "app/gen.ts",
      runtimeImport: "toolwright/runtime",
      check: true,
      watch: false,
      help: false,
    });
  });

  it("reads --flag=value and the short flags", () => {
    expect(parseArgs(["codegen", "--project=app/tsconfig.json", "--out=app/gen.ts", "--runtime-import=tw"])).toEqual({
      project: "app/tsconfig.json",
      out: "app/gen.ts",
      runtimeImport: "tw",
      check: false,
      watch: false,
      help: false,
    });
    expect(parseArgs(["codegen", "-p", "a.json", "-o", "b.ts", "-w"])).toEqual({ project: "a.json", out: "b.ts", check: false, watch: true, help: false });
  });

  it("leaves unset options undefined so package.json and the defaults apply", () => {
    expect(parseArgs(["codegen"])).toEqual({ check: false, watch: false, help: false });
  });

  it("reads --import-extension and rejects a value that is not js, ts or none", () => {
    expect(parseArgs(["codegen", "--import-extension", "js"]).importExtension).toBe("js");
    expect(parseArgs(["codegen", "--import-extension=none"]).importExtension).toBe("none");
    expect(parseError(["codegen", "--import-extension", "mjs"]).message).toBe(`--import-extension must be one of js, ts, none, not 'mjs'.\n\n${usage}`);
  });

  it("asks for help with --help, -h or no arguments", () => {
    expect(parseArgs([]).help).toBe(true);
    expect(parseArgs(["--help"]).help).toBe(true);
    expect(parseArgs(["-h"]).help).toBe(true);
    expect(parseArgs(["codegen", "--help"]).help).toBe(true);
  });

  it("rejects a flag whose value is missing, empty or another flag", () => {
    expect(parseError(["codegen", "--out"]).message).toBe(`--out needs a value.\n\n${usage}`);
    expect(parseError(["codegen", "--out="]).message).toBe(`--out needs a value.\n\n${usage}`);
    expect(parseError(["codegen", "--project", "--check"]).message).toBe(`--project needs a value.\n\n${usage}`);
  });

  it("rejects a value given to a switch", () => {
    expect(parseError(["codegen", "--check=yes"]).message).toBe(`--check takes no value; write --check alone.\n\n${usage}`);
  });

  it("rejects unknown options and commands", () => {
    expect(parseError(["codegen", "--verbose"]).message).toBe(`Unknown option '--verbose'.\n\n${usage}`);
    expect(parseError(["codegen", "--outfile=x.ts"]).message).toBe(`Unknown option '--outfile=x.ts'.\n\n${usage}`);
    expect(parseError(["build"]).message).toBe(`Unknown command 'build'; the commands are 'codegen' and 'import-haystack'.\n\n${usage}`);
  });

  it("rejects --check together with --watch", () => {
    expect(parseError(["codegen", "--check", "--watch"]).message).toBe("--check and --watch cannot be used together: use --check in CI and --watch while editing.");
  });
});

describe("main", () => {
  const projects: TempProject[] = [];
  const project = (files: Record<string, string>, packageJson?: Record<string, unknown>) => {
    const created = new TempProject(files, packageJson);
    projects.push(created);
    return created;
  };
  afterAll(() => {
    for (const p of projects) p.dispose();
  });

  async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
    const out = captured();
    const err = captured();
    const code = await main(argv, out, err, cwd);
    return { code, out: out.text, err: err.text };
  }

  it("prints the usage for --help and exits 0", async () => {
    expect(await run(["--help"], process.cwd())).toEqual({ code: 0, out: `${usage}\n`, err: "" });
  });

  it("prints the usage on stderr and exits 2 when given no arguments", async () => {
    expect(await run([], process.cwd())).toEqual({ code: 2, out: "", err: `${usage}\n` });
  });

  it("prints the package version for --version and exits 0", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string };
    expect(await run(["--version"], process.cwd())).toEqual({ code: 0, out: `${version}\n`, err: "" });
  });

  it("writes .js imports under nodenext, and what --import-extension or package.json asks for", async () => {
    const p = project({ "src/supportTools.ts": supportTools }, { name: "app", type: "module" });
    p.write("tsconfig.json", JSON.stringify({ ...tempTsconfig, compilerOptions: { ...tempTsconfig.compilerOptions, module: "nodenext" } }));

    expect(await run(["codegen"], p.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (1 tool).\n", err: "" });
    expect(p.read("src/tools.generated.ts")).toContain('import { SupportTools } from "./supportTools.js";\n');

    expect(await run(["codegen", "--import-extension", "none"], p.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (1 tool).\n", err: "" });
    expect(p.read("src/tools.generated.ts")).toContain('import { SupportTools } from "./supportTools";\n');
    expect(p.read("src/tools.generated.ts")).toContain("// Regenerate with: npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts --import-extension none\n");

    p.write("package.json", JSON.stringify({ name: "app", type: "module", toolwright: { importExtension: "ts" } }));
    expect(await run(["codegen"], p.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (1 tool).\n", err: "" });
    expect(p.read("src/tools.generated.ts")).toContain('import { SupportTools } from "./supportTools.ts";\n');
  });

  it("exits 1 with TW402 when the generated module would be CommonJS under verbatimModuleSyntax", async () => {
    const p = project({ "src/supportTools.ts": supportTools }, { name: "app" });
    p.write("tsconfig.json", JSON.stringify({ ...tempTsconfig, compilerOptions: { ...tempTsconfig.compilerOptions, module: "nodenext", verbatimModuleSyntax: true } }));

    expect(await run(["codegen"], p.dir)).toEqual({
      code: 1,
      out: "",
      err:
        'tsconfig.json:1:1 - error TW402: The generated module src/tools.generated.ts would be a CommonJS module (package.json has no "type": "module") under verbatimModuleSyntax, where TypeScript rejects import and export syntax (TS1286, TS1287); make it an ES module ("module": "nodenext" with "type": "module" in package.json, or an .mts --out) or turn verbatimModuleSyntax off.\n\nFound 1 error.\n',
    });
    expect(p.exists("src/tools.generated.ts")).toBe(false);
  });

  it("exits 2 saying what to install when typescript or ts-morph cannot be loaded", async () => {
    const missing = (id: string) => {
      if (id === "ts-morph") throw Object.assign(new Error("Cannot find module 'ts-morph'"), { code: "MODULE_NOT_FOUND" });
      return require(id) as unknown;
    };
    const err = captured();
    expect(await main(["codegen"], captured(), err, process.cwd(), () => loadCodegen(missing))).toBe(2);
    expect(err.text).toBe(
      "toolwright: toolwright codegen needs ts-morph, which is not installed (the runtime does not depend on them); install them as dev dependencies: npm i -D typescript@5.9 ts-morph@27.\n",
    );
  });

  it("runs as a process without typescript and ts-morph only as far as that message, exiting 2", () => {
    const p = project({});
    // Makes both packages unresolvable, as in a project that never installed them.
    p.write(
      "block.js",
      `const Module = require("module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "typescript" || request === "ts-morph") throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: "MODULE_NOT_FOUND" });
  return resolve.call(this, request, ...rest);
};
`,
    );
    const cli = path.join(__dirname, "..", "..", "dist", "codegen", "cli.js");
    const result = spawnSync(process.execPath, ["--require", p.path("block.js"), cli, "codegen"], { cwd: p.dir, encoding: "utf8" });
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "toolwright: toolwright codegen needs typescript and ts-morph, which are not installed (the runtime does not depend on them); install them as dev dependencies: npm i -D typescript@5.9 ts-morph@27.\n",
    });
  });

  it("exits 2 on a bad argument, printing the problem and the usage", async () => {
    expect(await run(["codegen", "--verbose"], process.cwd())).toEqual({ code: 2, out: "", err: `toolwright: Unknown option '--verbose'.\n\n${usage}\n` });
    expect(await run(["generate"], process.cwd())).toEqual({ code: 2, out: "", err: `toolwright: Unknown command 'generate'; the commands are 'codegen' and 'import-haystack'.\n\n${usage}\n` });
  });

  it("writes the module and exits 0, then leaves an unchanged module untouched", async () => {
    const p = project({ "src/supportTools.ts": supportTools });
    const argv = ["codegen", "--project", "tsconfig.json", "--out", "src/tools.generated.ts"];

    expect(await run(argv, p.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (1 tool).\n", err: "" });
    const written = p.read("src/tools.generated.ts");
    expect(written.split("\n").slice(0, 5)).toEqual([
      "// generated by toolwright codegen; do not edit.",
      `// Regenerate with: ${command}`,
      "/* eslint-disable */",
      'import { registerToolSchemas, type GeneratedToolEntry } from "toolwright";',
      'import { SupportTools } from "./supportTools";',
    ]);
    expect(written).toContain("  this.search(search_query); // SupportTools.search\n");
    expect(written).toContain('"description":"Search the ticket archive."');

    const past = new Date("2001-02-03T04:05:06Z");
    fs.utimesSync(p.path("src/tools.generated.ts"), past, past);
    expect(await run(argv, p.dir)).toEqual({ code: 0, out: "unchanged: src/tools.generated.ts (1 tool).\n", err: "" });
    expect(fs.statSync(p.path("src/tools.generated.ts")).mtime.getTime()).toBe(past.getTime());
    expect(p.read("src/tools.generated.ts")).toBe(written);

    expect(await run([...argv, "--check"], p.dir)).toEqual({ code: 0, out: "src/tools.generated.ts is up to date (1 tool).\n", err: "" });
  });

  it("reads its options from the \"toolwright\" key of package.json when no flags are given, and flags win over it", async () => {
    const p = project({ "src/supportTools.ts": supportTools }, { name: "app", toolwright: { project: "tsconfig.json", out: "generated/schemas.ts" } });

    expect(await run(["codegen"], p.dir)).toEqual({ code: 0, out: "wrote generated/schemas.ts (1 tool).\n", err: "" });
    expect(p.read("generated/schemas.ts")).toContain("// Regenerate with: npx toolwright codegen --project tsconfig.json --out generated/schemas.ts\n");
    expect(p.read("generated/schemas.ts")).toContain('import { SupportTools } from "../src/supportTools";\n');

    expect(await run(["codegen", "--out", "src/other.generated.ts"], p.dir)).toEqual({ code: 0, out: "wrote src/other.generated.ts (1 tool).\n", err: "" });
  });

  it("prints every diagnostic tsc-style with a count, writes nothing and exits 1", async () => {
    const p = project({
      "src/supportTools.ts": `import { tool } from "toolwright";

export class SupportTools {
  @tool({ inputsFromState: { customer_id: "customer" } })
  search(query: string, customerId: string): string {
    return query + customerId;
  }

  @tool({ name: "search" })
  find(payload: unknown): string {
    return String(payload);
  }
}
`,
    });

    const result = await run(["codegen"], p.dir);

    expect(result).toEqual({
      code: 1,
      out: "",
      err: [
        "src/supportTools.ts:4:3 - error TW103: Tool name 'search' is used by SupportTools.search (src/supportTools.ts:4:3) and SupportTools.find (src/supportTools.ts:9:3); tool names must be unique across the program, so rename all but one with the name option.",
        "src/supportTools.ts:4:43 - error TW201: inputsFromState of SupportTools.search maps 'customer_id' to 'customer', which is not a parameter. Parameters: query, customerId.",
        "src/supportTools.ts:9:3 - error TW103: Tool name 'search' is used by SupportTools.search (src/supportTools.ts:4:3) and SupportTools.find (src/supportTools.ts:9:3); tool names must be unique across the program, so rename all but one with the name option.",
        "src/supportTools.ts:10:8 - error TW302: SupportTools.find(payload) is 'unknown', which gives the model no schema; give it a type, or add @asType payload any to the method's JSDoc to accept any JSON value.",
        "",
        "Found 4 errors.",
        "",
      ].join("\n"),
    });
    expect(p.exists("src/tools.generated.ts")).toBe(false);
  });

  it("exits 1 with --check when the module does not exist, writing nothing", async () => {
    const p = project({ "src/supportTools.ts": supportTools });

    expect(await run(["codegen", "--check"], p.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts does not exist. Run \`${command}\` and commit the result.\n`,
    });
    expect(p.exists("src/tools.generated.ts")).toBe(false);
  });

  it("exits 2 when the tsconfig does not exist", async () => {
    const p = project({});
    expect(await run(["codegen", "--project", "app/tsconfig.json"], p.dir)).toEqual({
      code: 2,
      out: "",
      err: `toolwright: tsconfig ${p.path("app/tsconfig.json")} does not exist; pass --project <path to tsconfig.json>.\n`,
    });
  });

  it("exits 2 when the \"toolwright\" key of package.json is not an object of known string options", async () => {
    const notObject = project({}, { toolwright: "src/tools.generated.ts" });
    expect(await run(["codegen"], notObject.dir)).toEqual({
      code: 2,
      out: "",
      err: `toolwright: The "toolwright" key of ${notObject.path("package.json")} must be an object such as { "project": "tsconfig.json", "out": "src/tools.generated.ts" }.\n`,
    });

    const unknownKey = project({}, { toolwright: { outFile: "src/tools.generated.ts" } });
    expect(await run(["codegen"], unknownKey.dir)).toEqual({
      code: 2,
      out: "",
      err: `toolwright: The "toolwright" key of ${unknownKey.path("package.json")} has unknown option "outFile"; the options are project, out, runtimeImport, importExtension.\n`,
    });

    const notString = project({}, { toolwright: { out: ["a.ts"] } });
    expect(await run(["codegen"], notString.dir)).toEqual({
      code: 2,
      out: "",
      err: `toolwright: The "toolwright" option "out" in ${notString.path("package.json")} must be a string.\n`,
    });
  });
});
