import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { watchToolSchemas } from "../../codegen/watch";
import { median } from "../measure";

/** One kind of edit, timed over several edits. */
export interface EditFigures {
  readonly kind: string;
  /** Median wall time of `regenerate([file])`, ms. */
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly edits: number;
  /** Files re-analysed per regeneration (the edited file plus its importers). */
  readonly analysedFiles: number;
}

/** What the watch benchmark measured. */
export interface WatchFigures {
  readonly tools: number;
  /** `watchToolSchemas` start-up: load the program and the first full analysis, ms. */
  readonly initialMs: number;
  readonly edits: readonly EditFigures[];
}

/**
 * Watch mode on a corpus: starts `watchToolSchemas` without a file watcher, then edits files on
 * disk and times `regenerate([file])` — what the watcher calls after a change (its 25 ms debounce is
 * not counted). Three kinds of edit:
 * - a tool's JSDoc description in one tool file (only that file is re-analysed);
 * - a new property on that file's file-local interface (a type change in one file);
 * - a new property on the shared `Address` interface that every tool file imports (informative:
 *   every importer is re-analysed).
 * Each edit writes different text, so every regeneration really changes the generated module.
 */
export function measureWatch(corpusDir: string, editsPerKind = 7, sharedEdits = 3): WatchFigures {
  const toolsDir = path.join(corpusDir, "src", "tools");
  const toolFiles = fs.readdirSync(toolsDir).filter((f) => f.endsWith(".ts")).sort().map((f) => path.join(toolsDir, f));
  const sharedFile = path.join(corpusDir, "src", "shared", "types.ts");
  const out = path.join(corpusDir, "tools.watch.generated.ts");
  fs.rmSync(out, { force: true });
  const started = performance.now();
  const watcher = watchToolSchemas({ project: path.join(corpusDir, "tsconfig.json"), out, cwd: corpusDir }, undefined, false);
  const initialMs = performance.now() - started;
  const tools = watcher.initial.analysis.tools.length;
  if (watcher.initial.analysis.diagnostics.length > 0 || !fs.existsSync(out)) throw new Error(`watch: the initial analysis failed: ${JSON.stringify(watcher.initial.analysis.diagnostics.slice(0, 3))}`);
  // An edited file in the middle of the corpus.
  const file = toolFiles[Math.floor(toolFiles.length / 2)]!;
  const original = fs.readFileSync(file, "utf8");
  try {
    const edits: EditFigures[] = [];
    edits.push(
      timeEdits("JSDoc description", editsPerKind, (i) => {
        const summary = "Search the knowledge base for articles.";
        if (!original.includes(summary)) throw new Error("watch: the corpus changed; no search summary to edit");
        fs.writeFileSync(file, original.replace(summary, `Search the knowledge base for articles (edit ${i}).`));
        return [file, (content) => content.includes(`(edit ${i}).`)];
      }),
    );
    edits.push(
      timeEdits("file-local interface property", editsPerKind, (i) => {
        fs.writeFileSync(file, original.replace("  skip?: string[];\n", `  skip?: string[];\n  /** Added by edit ${i}. */\n  added${i}?: boolean;\n`));
        return [file, (content) => content.includes(`"added${i}"`)];
      }),
    );
    fs.writeFileSync(file, original);
    const sharedOriginal = fs.readFileSync(sharedFile, "utf8");
    try {
      edits.push(
        timeEdits("shared imported interface property", sharedEdits, (i) => {
          fs.writeFileSync(sharedFile, sharedOriginal.replace("  extra?: string;\n", `  extra?: string;\n  /** Added by edit ${i}. */\n  shared${i}?: number;\n`));
          return [sharedFile, (content) => content.includes(`"shared${i}"`)];
        }),
      );
    } finally {
      fs.writeFileSync(sharedFile, sharedOriginal);
    }
    return { tools, initialMs, edits };
  } finally {
    fs.writeFileSync(file, original);
    watcher.close();
    fs.rmSync(out, { force: true });
  }

  function timeEdits(kind: string, count: number, edit: (i: number) => [string, (content: string) => boolean]): EditFigures {
    const times: number[] = [];
    let analysedFiles = 0;
    for (let i = 0; i < count; i++) {
      const [changed, applied] = edit(i);
      const start = performance.now();
      const event = watcher.regenerate([changed]);
      times.push(performance.now() - start);
      analysedFiles = event.analysedFiles.length;
      const content = fs.readFileSync(out, "utf8");
      if (event.analysis.diagnostics.length > 0 || !event.written || !applied(content)) {
        throw new Error(`watch: edit '${kind}' #${i} did not reach the generated module (written ${event.written}, ${event.analysis.diagnostics.length} diagnostics)`);
      }
    }
    return { kind, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times), edits: count, analysedFiles };
  }
}

// Run as a child process by the benchmark (fresh process, its own peak RSS):
// node dist/bench/codegen/watchRegeneration.js <corpus dir>   → prints the figures as one JSON line.
if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node dist/bench/codegen/watchRegeneration.js <corpus dir>");
    process.exitCode = 2;
  } else {
    console.log(JSON.stringify(measureWatch(dir)));
  }
}
