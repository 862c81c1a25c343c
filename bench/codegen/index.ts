import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fmt } from "../measure";
import { type Corpus, repoRoot, writeCorpus } from "./corpus";
import { type CommandFigures, type CommandRun, type NodeCommand, runCommand, summarise } from "../runCommand";
import type { WatchFigures } from "./watchRegeneration";

/** Cold runs per tool and corpus (each a fresh process); the median is reported. */
const coldRuns = 3;
/** Target: toolwright's cold run on the 1,000-tool corpus, as a multiple of `tsc --noEmit`. */
const coldTarget = 1.5;
/** Target: one-file regeneration in watch mode, ms. */
const watchTargetMs = 150;
/** Target (issue #10): the generated module's size on the 1,000-tool corpus, bytes (25 % of the 2,001,054 of the object-literal module). */
const moduleSizeTarget = 500_263;
/** Target (issue #10): `tsc --noEmit` with the generated module, as a multiple of `tsc --noEmit` without it. */
const moduleTscTarget = 1.1;
/** Target (issue #10): toolwright codegen as a multiple of `tsc --noEmit`, wall and CPU. */
const codegenTarget = 1.2;

type ToolId = "tsc" | "tscModule" | "toolwright" | "tjs" | "tsjsg";

const toolLabels: Record<ToolId, string> = {
  tsc: "tsc --noEmit (floor)",
  tscModule: "tsc --noEmit + module",
  toolwright: "toolwright codegen",
  tjs: "typescript-json-schema",
  tsjsg: "ts-json-schema-generator",
};

/** The four commands over one corpus; every one is a Node script started fresh. */
function commands(corpus: Corpus): Record<ToolId, NodeCommand> {
  const bin = (file: string) => path.join(repoRoot, file);
  const out = (name: string) => path.join(corpus.dir, "out", name);
  return {
    tsc: { label: toolLabels.tsc, script: bin("node_modules/typescript/bin/tsc"), args: ["--noEmit", "-p", corpus.tsconfig], cwd: corpus.dir },
    // The user's build once the generated module is part of it; exit code 2 (type errors) is reported, not fatal.
    tscModule: { label: toolLabels.tscModule, script: bin("node_modules/typescript/bin/tsc"), args: ["--noEmit", "-p", withModuleTsconfig(corpus)], cwd: corpus.dir, allowedExitCodes: [2] },
    toolwright: {
      label: toolLabels.toolwright,
      script: bin("dist/codegen/cli.js"),
      args: ["codegen", "--project", corpus.tsconfig, "--out", path.join(corpus.dir, "tools.generated.ts")],
      cwd: corpus.dir,
    },
    tjs: {
      label: toolLabels.tjs,
      script: bin("node_modules/typescript-json-schema/bin/typescript-json-schema"),
      args: [corpus.tsconfig, "*", "--required", "--noExtraProps", "--out", out("typescript-json-schema.json")],
      cwd: corpus.dir,
    },
    tsjsg: {
      label: toolLabels.tsjsg,
      script: bin("node_modules/ts-json-schema-generator/bin/ts-json-schema-generator"),
      args: ["--path", path.join(corpus.dir, "src", "**", "*.ts"), "--type", "*", "--tsconfig", corpus.tsconfig, "--out", out("ts-json-schema-generator.json")],
      cwd: corpus.dir,
    },
  };
}

// Each output is checked once, so a tool that silently did less work cannot look fast.
function checkOutput(id: ToolId, corpus: Corpus, run: CommandRun): void {
  const fail = (what: string) => {
    throw new Error(`${toolLabels[id]} on the ${corpus.toolCount}-tool corpus: ${what}`);
  };
  if (id === "toolwright") {
    if (!run.stdout.includes(`(${corpus.toolCount} tools)`)) fail(`expected ${corpus.toolCount} tools, got: ${run.stdout.trim()}`);
    const text = fs.readFileSync(path.join(corpus.dir, "tools.generated.ts"), "utf8");
    const entries = text.split('\n{"member":').length - 1;
    if (entries !== corpus.toolCount) fail(`the generated module has ${entries} entries`);
  } else if (id === "tjs" || id === "tsjsg") {
    const file = path.join(corpus.dir, "out", id === "tjs" ? "typescript-json-schema.json" : "ts-json-schema-generator.json");
    const definitions = (JSON.parse(fs.readFileSync(file, "utf8")) as { definitions?: Record<string, unknown> }).definitions ?? {};
    const missing = corpus.parameterInterfaces.filter((name) => !(name in definitions));
    if (missing.length > 0) fail(`${missing.length} parameter interfaces have no schema, e.g. ${missing[0]}`);
  }
}

// The corpus's tsconfig with the generated module added to its files.
function withModuleTsconfig(corpus: Corpus): string {
  const file = path.join(corpus.dir, "tsconfig.with-module.json");
  fs.writeFileSync(file, `${JSON.stringify({ extends: "./tsconfig.json", include: ["src/**/*.ts", "tools.generated.ts"] }, null, 2)}\n`);
  return file;
}

function clearOutputs(corpus: Corpus): void {
  fs.rmSync(path.join(corpus.dir, "tools.generated.ts"), { force: true });
  fs.rmSync(path.join(corpus.dir, "out"), { recursive: true, force: true });
}

/** What the generated module of a corpus costs its user. */
export interface ModuleFigures {
  readonly bytes: number;
  /** Type errors `tsc` reported in the project with the module (0 unless the module is wrong). */
  readonly tscErrors: number;
}

/**
 * Cold runs of the tools on a corpus, interleaved (tsc, tsc + module, toolwright, tjs, tsjsg, tsc, …)
 * so drift hits all alike. `tsc + module` runs on the module toolwright wrote in the first round.
 */
async function coldFigures(corpus: Corpus): Promise<{ figures: Record<ToolId, CommandFigures>; module: ModuleFigures }> {
  const cmds = commands(corpus);
  const ids = Object.keys(cmds) as ToolId[];
  const runs: Record<ToolId, CommandRun[]> = { tsc: [], tscModule: [], toolwright: [], tjs: [], tsjsg: [] };
  const moduleFile = path.join(corpus.dir, "tools.generated.ts");
  clearOutputs(corpus);
  await runCommand(cmds.toolwright);
  const moduleText = fs.readFileSync(moduleFile, "utf8");
  for (let round = 0; round < coldRuns; round++) {
    for (const id of ids) {
      clearOutputs(corpus);
      if (id === "tscModule") fs.writeFileSync(moduleFile, moduleText);
      const run = await runCommand(cmds[id]);
      if (round === 0) checkOutput(id, corpus, run);
      runs[id].push(run);
    }
  }
  const tscErrors = (runs.tscModule[0]!.stdout.match(/error TS\d+/g) ?? []).length;
  return {
    figures: Object.fromEntries(ids.map((id) => [id, summarise(toolLabels[id], runs[id])])) as Record<ToolId, CommandFigures>,
    module: { bytes: Buffer.byteLength(moduleText), tscErrors },
  };
}

/** Figures of the whole codegen benchmark (also used to write BENCHMARKS.md by hand). */
export interface CodegenBenchResult {
  readonly cold: ReadonlyArray<{ files: number; tools: number; figures: Record<ToolId, CommandFigures>; module: ModuleFigures }>;
  readonly watch: WatchFigures & { peakRssMiB: number | undefined; processSeconds: number };
}

/**
 * Codegen benchmarks: cold runs of toolwright codegen, typescript-json-schema,
 * ts-json-schema-generator and `tsc --noEmit` on generated corpora of 200 and 1,000 tools, then
 * one-file regeneration in watch mode on the 1,000-tool corpus.
 */
export async function benchCodegen(log: (line: string) => void = console.log): Promise<CodegenBenchResult> {
  const corpora: Corpus[] = [];
  const loadBefore = os.loadavg()[0]!;
  try {
    const small = writeCorpus(20);
    corpora.push(small);
    const large = writeCorpus(100);
    corpora.push(large);
    // One unmeasured run of each tool, so the OS file cache holds every script and declaration file
    // before the first measured run ("cold" = a fresh process, not a cold disk).
    for (const cmd of Object.values(commands(small))) await runCommand(cmd);
    const cold: CodegenBenchResult["cold"][number][] = [];
    for (const corpus of corpora) {
      const files = corpus.toolFiles.length;
      const { figures, module } = await coldFigures(corpus);
      cold.push({ files, tools: corpus.toolCount, figures, module });
      const floor = figures.tsc;
      for (const id of Object.keys(figures) as ToolId[]) {
        const f = figures[id];
        const ratio = f.wallSeconds / floor.wallSeconds;
        const target = id === "toolwright" && corpus.toolCount === 1000 ? ` (target ≤ ${coldTarget}×: ${ratio <= coldTarget ? "met" : "MISSED"})` : "";
        log(
          `codegen cold, ${num(corpus.toolCount)} tools / ${files} files, ${f.label.padEnd(25)} wall ${fmt(f.wallSeconds, 2)} s = ${fmt(ratio, 2)}× tsc${target}; ` +
            `CPU ${fmt(f.cpuSeconds, 2)} s = ${fmt(f.cpuSeconds / floor.cpuSeconds, 2)}× tsc; peak RSS ${fmt(f.peakRssMiB, 0)} MiB = ${fmt(f.peakRssMiB / floor.peakRssMiB, 2)}× tsc`,
        );
      }
      const large = corpus.toolCount === 1000;
      const met = (ok: boolean) => (ok ? "met" : "MISSED");
      const moduleRatio = figures.tscModule.wallSeconds / floor.wallSeconds;
      const moduleCpuRatio = figures.tscModule.cpuSeconds / floor.cpuSeconds;
      log(
        `codegen module, ${num(corpus.toolCount)} tools: ${num(module.bytes)} bytes${large ? ` (target ≤ ${num(moduleSizeTarget)}: ${met(module.bytes <= moduleSizeTarget)})` : ""}; ` +
          `tsc --noEmit with it / without it = ${fmt(moduleRatio, 2)}× wall, ${fmt(moduleCpuRatio, 2)}× CPU${large ? ` (target ≤ ${moduleTscTarget}×: ${met(moduleRatio <= moduleTscTarget)})` : ""}` +
          (module.tscErrors > 0 ? `; tsc reported ${module.tscErrors} type errors in the project with the module` : ""),
      );
      const codegenWall = figures.toolwright.wallSeconds / floor.wallSeconds;
      const codegenCpu = figures.toolwright.cpuSeconds / floor.cpuSeconds;
      if (large) log(`codegen / tsc --noEmit, ${num(corpus.toolCount)} tools: ${fmt(codegenWall, 2)}× wall, ${fmt(codegenCpu, 2)}× CPU (target ≤ ${codegenTarget}× both: ${met(codegenWall <= codegenTarget && codegenCpu <= codegenTarget)})`);
      const tw = figures.toolwright.wallSeconds;
      log(`codegen cold, ${num(corpus.toolCount)} tools: typescript-json-schema / toolwright = ${fmt(figures.tjs.wallSeconds / tw, 2)}×, ts-json-schema-generator / toolwright = ${fmt(figures.tsjsg.wallSeconds / tw, 2)}×`);
    }
    const watchRun = await runCommand({ label: "watch regeneration", script: path.join(__dirname, "watchRegeneration.js"), args: [large.dir], cwd: large.dir });
    const measured = JSON.parse(watchRun.stdout.trim().split("\n").at(-1)!) as WatchFigures;
    const watch = { ...measured, peakRssMiB: watchRun.peakRssMiB, processSeconds: watchRun.wallSeconds };
    log(`codegen watch, ${num(watch.tools)} tools: start-up (load + first full analysis) ${fmt(watch.initialMs, 0)} ms, peak RSS of the watch process ${fmt(watch.peakRssMiB ?? Number.NaN, 0)} MiB`);
    for (const e of watch.edits) {
      const target = e.analysedFiles === 1 ? ` (target ≤ ${watchTargetMs} ms: ${e.medianMs <= watchTargetMs ? "met" : "MISSED"})` : " (informative)";
      log(
        `codegen watch, ${num(watch.tools)} tools, edit of a ${e.kind}: ${fmt(e.medianMs, 0)} ms per regeneration ` +
          `(median of ${e.edits}, min ${fmt(e.minMs, 0)}, max ${fmt(e.maxMs, 0)}; ${e.analysedFiles} file${e.analysedFiles === 1 ? "" : "s"} re-analysed)${target}`,
      );
    }
    log(`codegen: load average (1 min) ${fmt(loadBefore, 2)} before, ${fmt(os.loadavg()[0]!, 2)} after, on ${os.cpus().length} CPUs (other load inflates wall times; CPU times suffer less)`);
    return { cold, watch };
  } finally {
    if (!process.env.TOOLWRIGHT_BENCH_KEEP_CORPUS) for (const corpus of corpora) corpus.remove();
    else for (const corpus of corpora) log(`corpus kept: ${corpus.dir}`);
  }
}

function num(n: number): string {
  return n.toLocaleString("en-US");
}
