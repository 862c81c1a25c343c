import * as fs from "node:fs";
import * as path from "node:path";
import type { Project, SourceFile } from "ts-morph";
import { type CodegenOptions, resolveOptions } from "./config";
import { writeIfChanged } from "./emit/writeIfChanged";
import { type Analysis, Analyzer } from "./generate";
import { writeFailure } from "./diagnostics";
import { loadProject } from "./project";

/** One regeneration in watch mode. */
export interface WatchEvent {
  readonly analysis: Analysis;
  /** Files re-analysed (absolute). */
  readonly analysedFiles: readonly string[];
  readonly written: boolean;
  /** Wall time from the change to the written file, in ms. */
  readonly ms: number;
}

/** A running watch: `regenerate` is what a file change triggers (exposed for tools and benchmarks). */
export interface ToolSchemaWatcher {
  /** The first, full analysis. */
  readonly initial: WatchEvent;
  /** Re-reads the given files from disk and regenerates, re-analysing only them and the files that import them. */
  regenerate(changedFiles: readonly string[]): WatchEvent;
  /** Stops watching. */
  close(): void;
}

/**
 * Generates once, then regenerates whenever a TypeScript file in a directory of the program (or
 * of its tsconfig) changes. Only the changed files and the files that (transitively) import them
 * are analysed again.
 *
 * The directories are watched, not the files: an editor's atomic save (write a temporary file,
 * rename it over the original) replaces the file, and a watch on the old file would see nothing
 * after the first save. A new file in a directory that holds no program file yet is not seen.
 */
export function watchToolSchemas(options: CodegenOptions, onEvent: (event: WatchEvent) => void = () => undefined, listen = true): ToolSchemaWatcher {
  const resolved = resolveOptions(options);
  const project = loadProject(resolved.project);
  const analyzer = new Analyzer(project, resolved);
  // A failed write is reported as TW401 through onEvent, and watching goes on.
  let writeError: unknown;
  const write = (content: string): boolean => {
    try {
      writeError = undefined;
      return writeIfChanged(resolved.out, content);
    } catch (error) {
      writeError = error;
      return false;
    }
  };
  const withWriteError = (analysis: Analysis): Analysis =>
    writeError === undefined ? analysis : { ...analysis, content: undefined, diagnostics: [...analysis.diagnostics, writeFailure(resolved.cwd, resolved.out, writeError)] };
  const started = performance.now();
  const first = analyzer.analyse();
  const firstWritten = first.content !== undefined && write(first.content);
  const initial: WatchEvent = {
    analysis: withWriteError(first),
    analysedFiles: project.getSourceFiles().map((f) => f.getFilePath()),
    written: firstWritten,
    ms: performance.now() - started,
  };
  onEvent(initial);

  const regenerate = (changedFiles: readonly string[]): WatchEvent => {
    const start = performance.now();
    const changed: SourceFile[] = [];
    // Files that imported a deleted file must be analysed again: their types changed too.
    const importersOfDeleted = new Set<SourceFile>();
    for (const file of changedFiles.map((f) => path.resolve(resolved.cwd, f))) {
      const existing = project.getSourceFile(file);
      if (!fs.existsSync(file)) {
        if (existing) {
          for (const importer of existing.getReferencingSourceFiles()) importersOfDeleted.add(importer);
          analyzer.forget(file);
          project.removeSourceFile(existing);
        }
        continue;
      }
      if (existing) {
        existing.refreshFromFileSystemSync();
        changed.push(existing);
      } else {
        changed.push(project.addSourceFileAtPath(file));
      }
    }
    for (const importer of importersOfDeleted) if (!importer.wasForgotten()) changed.push(importer);
    const affected = withImporters(changed, resolved.out);
    const analysis = analyzer.analyse(affected);
    const written = analysis.content !== undefined && write(analysis.content);
    const event = { analysis: withWriteError(analysis), analysedFiles: affected.map((f) => f.getFilePath()), written, ms: performance.now() - start };
    onEvent(event);
    return event;
  };

  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<string>();
  const onChange = (dir: string, name: string | Buffer | null) => {
    if (!name) return;
    const file = path.resolve(dir, name.toString());
    if (!/\.(ts|tsx|mts|cts)$/.test(file) || file === resolved.out) return;
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...pending];
      pending.clear();
      regenerate(files);
      directories.sync();
    }, 25);
  };
  const directories = new DirectoryWatchers(() => programDirectories(project, resolved.project), onChange);
  if (listen) directories.sync();
  return {
    initial,
    regenerate,
    close() {
      clearTimeout(timer);
      directories.close();
    },
  };
}

// A change to a file can change the types of every file that imports it, directly or not. The
// generated module (`out`) is codegen's own output: it is neither analysed nor followed.
function withImporters(files: readonly SourceFile[], out: string): SourceFile[] {
  const seen = new Set<SourceFile>(files);
  const queue = [...files];
  while (queue.length > 0) {
    for (const importer of queue.pop()!.getReferencingSourceFiles()) {
      if (!seen.has(importer) && importer.getFilePath() !== out) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  return [...seen].filter((file) => file.getFilePath() !== out);
}

// The directories holding the program's own files (not node_modules) and the tsconfig.
function programDirectories(project: Project, tsconfig: string): Set<string> {
  const dirs = new Set([path.dirname(tsconfig)]);
  for (const file of project.getSourceFiles()) if (!file.isInNodeModules() && !file.isDeclarationFile()) dirs.add(path.dirname(file.getFilePath()));
  return dirs;
}

/** One non-recursive `fs.watch` per directory, kept in step with the program's directories. */
class DirectoryWatchers {
  readonly #watchers = new Map<string, fs.FSWatcher>();

  constructor(
    private readonly directories: () => Set<string>,
    private readonly onChange: (dir: string, name: string | Buffer | null) => void,
  ) {}

  /** Starts watching new directories and stops watching those no longer in the program. */
  sync(): void {
    const wanted = this.directories();
    for (const [dir, watcher] of this.#watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.#watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.#watchers.has(dir) || !fs.existsSync(dir)) continue;
      const watcher = fs.watch(dir, (_event, name) => this.onChange(dir, name));
      // A directory that is removed ends its watch; sync() after the next change forgets it.
      watcher.on("error", () => {
        watcher.close();
        this.#watchers.delete(dir);
      });
      this.#watchers.set(dir, watcher);
    }
  }

  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}
