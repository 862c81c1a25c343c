import { type Project, type SourceFile, ts } from "ts-morph";
import { buildToolModel, type NamedTool } from "./buildToolModel";
import { type ResolvedCodegenOptions } from "./config";
import { type Diagnostic, Diagnostics, sortDiagnostics } from "./diagnostics";
import { discoverInFile } from "./discoverTools";
import { commonJsUnderVerbatimModuleSyntax, importExtensionFor } from "./emit/importStyle";
import { renderModule } from "./emit/renderModule";
import type { ToolModel } from "./model";
import { isToolwrightOwnFile } from "./ownSource";
import { ToolwrightSymbols } from "./toolwrightSymbols";

/** The outcome of analysing a program: the tools, every diagnostic, and the module text (when there are no errors). */
export interface Analysis {
  readonly tools: readonly ToolModel[];
  readonly diagnostics: readonly Diagnostic[];
  /** Warnings (see `Diagnostic.severity`): printed, but the module is generated all the same. */
  readonly warnings: readonly Diagnostic[];
  /** The generated module, or undefined when there are diagnostics. */
  readonly content: string | undefined;
}

/** How far an analysis is: files analysed of all, and the tools found in them. */
export interface AnalysisProgress {
  readonly files: number;
  readonly totalFiles: number;
  readonly tools: number;
}

/**
 * Analyses every source file of the project: discovers tools, builds their models, checks names
 * across the program, and renders the module. Keeps the models of each file so that watch mode can
 * re-analyse only the files that changed.
 */
export class Analyzer {
  readonly #symbols = new ToolwrightSymbols();
  readonly #perFile = new Map<string, { tools: ToolModel[]; names: NamedTool[]; diagnostics: Diagnostics }>();

  constructor(
    private readonly project: Project,
    private readonly options: ResolvedCodegenOptions,
  ) {}

  /**
   * Analyses all files (the first run) or the given ones (watch mode), then the whole program's
   * checks. `onProgress` hears after each file how far it is.
   */
  analyse(changed?: readonly SourceFile[], onProgress?: (progress: AnalysisProgress) => void): Analysis {
    const files = changed ?? this.project.getSourceFiles();
    if (!changed) this.#perFile.clear();
    let done = 0;
    let tools = 0;
    for (const sourceFile of files) {
      onProgress?.({ files: done++, totalFiles: files.length, tools });
      const path = sourceFile.getFilePath();
      if (sourceFile.isDeclarationFile() || sourceFile.isInNodeModules() || path === this.options.out || sourceFile.wasForgotten() || isToolwrightOwnFile(path)) {
        this.#perFile.delete(path);
        continue;
      }
      const diagnostics = new Diagnostics(this.options.cwd);
      // A file that does not parse may lose tools without a word: its syntax errors stop the run.
      if (reportSyntaxErrors(sourceFile, diagnostics)) {
        this.#perFile.set(path, { tools: [], names: [], diagnostics });
        continue;
      }
      const discovered = discoverInFile(sourceFile, this.#symbols, diagnostics);
      const names: NamedTool[] = [];
      const found = discovered.map((tool) => buildToolModel(tool, this.#symbols, diagnostics, names)).filter((t): t is ToolModel => t !== undefined);
      this.#perFile.set(path, { tools: found, names, diagnostics });
      tools += found.length;
    }
    onProgress?.({ files: done, totalFiles: files.length, tools });
    return this.#finish();
  }

  /** Forgets a deleted file. */
  forget(path: string): void {
    this.#perFile.delete(path);
  }

  #finish(): Analysis {
    const programDiagnostics = new Diagnostics(this.options.cwd);
    const tools = [...this.#perFile.values()].flatMap((f) => f.tools);
    checkDuplicateNames([...this.#perFile.values()].flatMap((f) => f.names), programDiagnostics);
    const compilerOptions = this.project.getCompilerOptions();
    checkModuleFormat(compilerOptions, this.options, programDiagnostics);
    const diagnostics = sortDiagnostics([...[...this.#perFile.values()].flatMap((f) => f.diagnostics.items), ...programDiagnostics.items]);
    const warnings = sortDiagnostics([...this.#perFile.values()].flatMap((f) => f.diagnostics.warnings));
    const content =
      diagnostics.length > 0
        ? undefined
        : renderModule(tools, {
            outFile: this.options.out,
            moduleLabel: programDiagnostics.relative(this.options.out),
            command: this.options.command,
            runtimeImport: this.options.runtimeImport,
            importExtension: this.options.importExtension ?? importExtensionFor(compilerOptions),
          });
    return { tools, diagnostics, warnings, content };
  }
}

// TW108: the parser's own errors (the TypeScript message and code), each at its position. The parser
// is the TypeScript that ts-morph bundles, which may be older than the user's compiler (ts-morph 26
// bundles 5.8, which cannot read 5.9's `import defer`), so the message names its version.
function reportSyntaxErrors(sourceFile: SourceFile, diagnostics: Diagnostics): boolean {
  const errors = sourceFile.getProject().getProgram().compilerObject.getSyntacticDiagnostics(sourceFile.compilerNode);
  for (const error of errors) {
    const text = flattenMessage(error.messageText);
    diagnostics.atPosition(
      sourceFile,
      error.start ?? 0,
      "TW108",
      `Syntax error (TS${error.code}: ${text.replace(/\.$/, "")}), so codegen cannot read this file's tools and leaves the generated module as it was; fix the syntax error (codegen parses with TypeScript ${ts.version}, the version ts-morph bundles: if your compiler accepts this syntax, install a newer ts-morph).`,
    );
  }
  return errors.length > 0;
}

function flattenMessage(message: string | ts.DiagnosticMessageChain): string {
  return typeof message === "string" ? message : message.messageText;
}

// TW402: under verbatimModuleSyntax a CommonJS file may not use import/export syntax, which the
// generated module (like every file exporting a tool class) needs.
function checkModuleFormat(compilerOptions: ts.CompilerOptions, options: ResolvedCodegenOptions, diagnostics: Diagnostics): void {
  const reason = commonJsUnderVerbatimModuleSyntax(compilerOptions, options.out, (file) => diagnostics.relative(file));
  if (reason === undefined) return;
  diagnostics.inFile(
    options.project,
    "TW402",
    `The generated module ${diagnostics.relative(options.out)} would be a CommonJS module (${reason}) under verbatimModuleSyntax, where TypeScript rejects import and export syntax (TS1286, TS1287); make it an ES module ("module": "nodenext" with "type": "module" in package.json, or an .mts --out) or turn verbatimModuleSyntax off.`,
  );
}

// TW103: a tool name used twice anywhere in the program (also by tools with other errors); every location is named.
function checkDuplicateNames(tools: readonly NamedTool[], diagnostics: Diagnostics): void {
  const byName = new Map<string, NamedTool[]>();
  for (const tool of tools) byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  for (const [name, same] of byName) {
    if (same.length < 2) continue;
    const labels = same.map((t) => `${t.label} (${t.source})`);
    const users = `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)!}`;
    for (const tool of same) {
      diagnostics.atLocation(tool.source, "TW103", `Tool name '${name}' is used by ${users}; tool names must be unique across the program, so rename all but one with the name option.`);
    }
  }
}
