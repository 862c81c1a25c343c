import { Project } from "ts-morph";
import { main } from "../../codegen/cli";
import { captured, TempProject } from "./helpers/tempProject";

const supportTools = `import { tool } from "toolwright";

export class SupportTools {
  /** Search the ticket archive. */
  @tool
  search(query: string): string[] {
    return [query];
  }

  /** Close a ticket. */
  @tool({ name: "close_ticket" })
  close(ticketId: string): string {
    return ticketId;
  }
}
`;

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

describe("a generated module that is out of date (§3 steps 6-7)", () => {
  let project: TempProject;
  beforeEach(async () => {
    project = new TempProject({ "src/supportTools.ts": supportTools });
    expect(await run(["codegen"], project.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (2 tools).\n", err: "" });
  });
  afterEach(() => project.dispose());

  it("breaks the TypeScript build and fails --check naming the tool when a decorated method is renamed", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    expect(compile(project, program)).toEqual([]);

    project.edit("src/supportTools.ts", "search(query: string)", "findTickets(query: string)");

    const lines = project.read("src/tools.generated.ts").split("\n");
    const line = lines.indexOf('"search" satisfies keyof SupportTools; // SupportTools.search') + 1;
    const check = lines.findIndex((l) => l.startsWith("({} as") && l.endsWith("// SupportTools.search")) + 1;
    expect(compile(project, program)).toEqual([
      `src/tools.generated.ts(${line}): Type '"search"' does not satisfy the expected type 'keyof SupportTools'.`,
      `src/tools.generated.ts(${check}): Property 'search' does not exist on type 'SupportTools'.`,
      `src/tools.generated.ts(${check + 1}): Property 'search' does not exist on type 'SupportTools'.`,
    ]);
    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: findTickets (new), search (removed). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("breaks the TypeScript build at the tool's parameter check when a parameter's type changes", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    project.edit("src/supportTools.ts", "close(ticketId: string): string {\n    return ticketId;", "close(ticketId: number): string {\n    return String(ticketId);");

    const lines = project.read("src/tools.generated.ts").split("\n");
    const check = lines.findIndex((l) => l.startsWith("({} as") && l.endsWith("// SupportTools.close")) + 1;
    expect(lines.slice(check - 3, check + 1)).toEqual([
      "// A type error below means a tool's method or parameter types changed after this module was generated: run `npx toolwright codegen --project tsconfig.json --out src/tools.generated.ts`.",
      '"close" satisfies keyof SupportTools; // SupportTools.close',
      '({} as Parameters<SupportTools["close"]>) satisfies [ticketId: string]; // SupportTools.close',
      '({} as [ticketId: string]) satisfies Parameters<SupportTools["close"]>; // SupportTools.close',
    ]);
    expect(compile(project, program)).toEqual([
      `src/tools.generated.ts(${check}): Type '[ticketId: number]' does not satisfy the expected type '[ticketId: string]'.`,
      `src/tools.generated.ts(${check + 1}): Type '[ticketId: string]' does not satisfy the expected type '[ticketId: number]'.`,
    ]);
    expect(await run(["codegen", "--check"], project.dir)).toEqual({
      code: 1,
      out: "",
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: schema, parameter types). Run \`${command}\` and commit the result.\n`,
    });
  });

  it("breaks the TypeScript build when a parameter is narrowed to literals the schema does not list", async () => {
    const program = new Project({ tsConfigFilePath: project.path("tsconfig.json") });
    project.edit("src/supportTools.ts", "close(ticketId: string)", 'close(ticketId: "T-1" | "T-2")');

    const check = project.read("src/tools.generated.ts").split("\n").findIndex((l) => l.startsWith("({} as") && l.endsWith("// SupportTools.close")) + 1;
    expect(compile(project, program)).toEqual([`src/tools.generated.ts(${check + 1}): Type '[ticketId: string]' does not satisfy the expected type '[ticketId: "T-1" | "T-2"]'.`]);
  });

  it("stays up to date when a comment or a blank line moves a tool within its file", async () => {
    project.edit("src/supportTools.ts", "export class SupportTools {", "// Tools for the support desk.\n\nexport class SupportTools {");

    expect(await run(["codegen", "--check"], project.dir)).toEqual({ code: 0, out: "src/tools.generated.ts is up to date (2 tools).\n", err: "" });
    expect(project.read("src/tools.generated.ts")).toContain('"source":"src/supportTools.ts"}');
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
      err: `src/tools.generated.ts is out of date: stale tools: close_ticket (changed: parameters, schema, parameter types). Run \`${command}\` and commit the result.\n`,
    });
    expect(await run(["codegen"], project.dir)).toEqual({ code: 0, out: "wrote src/tools.generated.ts (2 tools).\n", err: "" });
    expect(await run(["codegen", "--check"], project.dir)).toEqual({ code: 0, out: "src/tools.generated.ts is up to date (2 tools).\n", err: "" });
  });
});
