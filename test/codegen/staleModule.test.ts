import { Project } from "ts-morph";
import { main } from "../../codegen/cli";
import { captured, supportToolsSource, TempProject } from "./helpers/tempProject";

const supportTools = supportToolsSource;

const command = "npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts";

async function run(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const out = captured();
  const err = captured();
  const code = await main(argv, out, err, cwd);
  return { code, out: out.text, err: err.text };
}

// What `tsc --noEmit -p tsconfig.json` reports for the project's own files, as `file(line): message`.
// (toolwright itself is mapped to this repository's source; checking all of it would only slow the test.)
// One ts-morph Project is loaded per temp project; later calls re-read the project's files from disk.
function compile(project: TempProject, program: Project): string[] {
  for (const file of program.getSourceFiles()) if (file.getFilePath().startsWith(`${project.dir}/`)) file.refreshFromFileSystemSync();
  const own = program.getSourceFiles().filter((f) => f.getFilePath().startsWith(`${project.dir}/`));
  expect(own.map((f) => f.getBaseName()).sort()).toEqual(["supportTools.ts", "tools.generated.ts"]);
  return own.flatMap((file) =>
    file.getPreEmitDiagnostics().map((d) => {
      const message = d.getMessageText();
      const text = typeof message === "string" ? message : message.getMessageText();
      return `${file.getFilePath().slice(project.dir.length + 1)}(${file.getLineAndColumnAtPos(d.getStart() ?? 0).line}): ${text}`;
    }),
  );
}

describe("a generated module that is out of date (tsc and --check catch it)", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = new TempProject({ "src/supportTools.ts": supportTools });
    expect(await run(["codegen"], project.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (2 tools).\n", err: "" });
  });
  afterEach(() => project.dispose());

  // The line of the generated module that is exactly `text`, 1-based.
  const lineOf = (text: string) => project.read("src/tools.generated.ts").split("\n").indexOf(text) + 1;

  it("breaks the TypeScript build and fails --check naming the tool when a decorated method is renamed", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    expect(compile(project, program)).toEqual([]);

    project.edit("src/supportTools.ts", "search(query: string)", "findTickets(query: string)");

    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${lineOf("  this.search(search_query); // SupportTools.search")}): Property 'search' does not exist on type 'SupportTools'.`]);
    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: findTickets (new), search (removed). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("breaks the TypeScript build at the tool's call in its check when a parameter's type changes", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    project.edit("src/supportTools.ts", "close(ticketId: string): string {\n    return ticketId;", "close(ticketId: number): string {\n    return String(ticketId);");

    const text = project.read("src/tools.generated.ts");
    expect(text.slice(text.indexOf("// A type error below"))).toBe(
      [
        "// A type error below means a tool's method or parameter types changed after this module was generated: run `npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts`.",
        "// Each function (never called) calls the tools of one class (its static or its instance methods) or one defineTool function with values of the types their schemas let the model send.",
        "(function (",
        "  this: SupportTools,",
        "  close_ticketId: string, // SupportTools.close",
        "  search_query: string, // SupportTools.search",
        "): void {",
        "  this.close(close_ticketId); // SupportTools.close",
        "  this.search(search_query); // SupportTools.search",
        "});",
        "",
      ].join("\n"),
    );
    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${lineOf("  this.close(close_ticketId); // SupportTools.close")}): Argument of type 'string' is not assignable to parameter of type 'number'.`]);
    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: schema, signature, parameter types). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("breaks the TypeScript build when a parameter is narrowed to literals the schema does not list", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    project.edit("src/supportTools.ts", "close(ticketId: string)", 'close(ticketId: "T-1" | "T-2")');

    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${lineOf("  this.close(close_ticketId); // SupportTools.close")}): Argument of type 'string' is not assignable to parameter of type '"T-1" | "T-2"'.`]);
  });

  it("breaks the TypeScript build when a parameter is added, removed or made required", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    const call = () => lineOf("  this.close(close_ticketId); // SupportTools.close");

    project.edit("src/supportTools.ts", "close(ticketId: string)", "close(ticketId: string, reason: string)");
    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${call()}): Expected 2 arguments, but got 1.`]);

    project.edit("src/supportTools.ts", "close(ticketId: string, reason: string): string {\n    return ticketId;", "close(): string {\n    return \"\";");
    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${call()}): Expected 0 arguments, but got 1.`]);

    project.edit("src/supportTools.ts", "close(): string {\n    return \"\";", "close(ticketId?: string): string {\n    return ticketId ?? \"\";");
    expect(await run(["codegen"], project.dir)).toMatchObject({ code: 0 });
    project.edit("src/supportTools.ts", "close(ticketId?: string)", "close(ticketId: string)");
    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${call()}): Argument of type 'string | undefined' is not assignable to parameter of type 'string'.`]);
  });

  it("compiles when a parameter is widened, which --check reports (the method still accepts every value the model can send)", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    project.edit("src/supportTools.ts", "close(ticketId: string): string {\n    return ticketId;", "close(ticketId: string | number): string {\n    return String(ticketId);");

    expect(compile(project, program)).toEqual([]);
    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: schema, signature, parameter types). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("stays up to date when a comment or a blank line moves a tool within its file", async () => {
    project.edit("src/supportTools.ts", "export class SupportTools {", "// Tools for the support desk.\n\nexport class SupportTools {");

    expect(await run(["codegen", "--check"], project.dir)).toEqual({ code: 0, out: "src/tools.generated.ts is up to date (2 tools).\n", err: "" });
    expect(project.read("src/tools.generated.ts")).toContain('\n{"source":"src/supportTools.ts","tools":[\n');
  });

  it("fails --check naming the tool and the part that changed when a description changes", async () => {
    project.edit("src/supportTools.ts", "/** Close a ticket. */", "/** Close a ticket for good. */");

    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: description). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("fails --check naming the tool and the part that changed when a decorator option changes", async () => {
    project.edit("src/supportTools.ts", '@tool({ name: "close_ticket" })', '@tool({ name: "close_ticket", outputsToState: { closed: {} } })');

    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: options). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("fails --check naming the tool when a decorated method's parameters change", async () => {
    project.edit("src/supportTools.ts", "close(ticketId: string)", "close(ticketId: string, reason?: string)");

    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: parameters, schema, signature, parameter types). Run \`${command}\` and commit the result.\n`,
    });
    expect(await run(["codegen"], project.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (2 tools).\n", err: "" });
    expect(await run(["codegen", "--check"], project.dir)).toEqual({ code: 0, out: "src/tools.generated.ts is up to date (2 tools).\n", err: "" });
  });
});
