import * as path from "node:path";
import type { Node, SourceFile } from "ts-morph";

/**
 * Stable diagnostic codes. TW1xx: discovery and options; TW2xx: parameters and state; TW3xx:
 * types; TW4xx: output. TW304 is a warning; every other code is an error.
 */
export type DiagnosticCode =
  | "TW101" // option codegen must read is not a literal
  | "TW102" // invalid tool name
  | "TW103" // duplicate tool name
  | "TW104" // @tool on something that is not a public method
  | "TW105" // defineTool result not assigned to an exported const
  | "TW106" // the class of a @tool method is not exported
  | "TW107" // a JSDoc @title or annotation hint (@readOnlyHint, …) with a bad value
  | "TW108" // a file of the program has a syntax error
  | "TW201" // inputsFromState names an unknown parameter
  | "TW202" // a State parameter is also named in inputsFromState
  | "TW203" // outputsToState.source is not a property of the return type
  | "TW204" // parameter without a type annotation
  | "TW301" // unsupported type
  | "TW302" // any/unknown without @asType
  | "TW303" // a return type holds ImageContent or FileContent inside other data
  | "TW304" // warning: a parameter typed as a class with methods receives a plain object
  | "TW401" // the output file cannot be written
  | "TW402"; // the output file would be a CommonJS module under verbatimModuleSyntax

/** One problem found by codegen, at a source position. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  /** Path relative to the working directory, with forward slashes. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  /** `"warning"` for a warning, which is printed but never stops codegen nor changes its exit code; absent for an error. */
  readonly severity?: "warning";
}

/** Collects diagnostics; codegen reports all of them at once. */
export class Diagnostics {
  readonly #items: Diagnostic[] = [];
  readonly #warnings: Diagnostic[] = [];

  constructor(private readonly cwd: string) {}

  /** Adds a diagnostic at a node's start. */
  at(node: Node, code: DiagnosticCode, message: string): void {
    const sourceFile = node.getSourceFile();
    const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
    this.#items.push({ code, file: this.relative(sourceFile.getFilePath()), line, column, message });
  }

  /** Adds a warning at a node's start. */
  warnAt(node: Node, code: DiagnosticCode, message: string): void {
    const sourceFile = node.getSourceFile();
    const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
    this.#warnings.push({ code, file: this.relative(sourceFile.getFilePath()), line, column, message, severity: "warning" });
  }

  /** Adds a diagnostic at a character position of a file. */
  atPosition(sourceFile: SourceFile, position: number, code: DiagnosticCode, message: string): void {
    const { line, column } = sourceFile.getLineAndColumnAtPos(position);
    this.#items.push({ code, file: this.relative(sourceFile.getFilePath()), line, column, message });
  }

  /** Adds a diagnostic at a `file:line:col` location as `location()` wrote it. */
  atLocation(location: string, code: DiagnosticCode, message: string): void {
    const [file = location, line = "1", column = "1"] = location.split(":");
    this.#items.push({ code, file, line: Number(line), column: Number(column), message });
  }

  /** Adds a diagnostic about a whole file (line 1, column 1). */
  inFile(file: string, code: DiagnosticCode, message: string): void {
    this.#items.push({ code, file: this.relative(file), line: 1, column: 1, message });
  }

  /** `file:line:col` of a node, relative to the working directory. */
  location(node: Node): string {
    const sourceFile = node.getSourceFile();
    const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
    return `${this.relative(sourceFile.getFilePath())}:${line}:${column}`;
  }

  relative(file: string): string {
    return path.relative(this.cwd, file).split(path.sep).join("/");
  }

  /** The errors, by position. */
  get items(): readonly Diagnostic[] {
    return sortDiagnostics(this.#items);
  }

  /** The warnings, by position. */
  get warnings(): readonly Diagnostic[] {
    return sortDiagnostics(this.#warnings);
  }

  get count(): number {
    return this.#items.length;
  }
}

/** Diagnostics ordered by file, line, column and code. */
export function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  return [...items].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

/** One diagnostic, tsc-style: `src/tools/support.ts:14:3 - error TW201: …` (or `- warning TW304: …`). */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column} - ${d.severity ?? "error"} ${d.code}: ${d.message}`;
}

/** TW401: the generated module could not be written. */
export function writeFailure(cwd: string, out: string, error: unknown): Diagnostic {
  const file = path.relative(cwd, out).split(path.sep).join("/");
  return { code: "TW401", file, line: 1, column: 1, message: `The generated module cannot be written: ${(error as Error).message}; make its directory writable or choose another --out.` };
}
