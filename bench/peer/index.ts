import * as path from "node:path";
import { fmt, median } from "../measure";
import { type CommandRun, runCommand } from "../runCommand";
import { parallelShape, startupTools } from "./child";

/** Fresh processes per figure; the median of their medians is reported. */
const processes = 3;
/** Run lengths of the sequential workload (W1). */
export const sequentialSteps = [25, 50, 100, 200, 400] as const;
/** Targets of issue #11, as multiples of (or additions to) the bare loop measured in the same run. */
const targets = { perCall: 5, growth: 0.2, startupWallMs: 60, startupRssMiB: 10 } as const;

const child = path.join(__dirname, "child.js");

/** µs per call: the median of each process's timed runs, and of each process's first run alone. */
interface LoopFigure {
  readonly typical: number;
  readonly firstRun: number;
}

async function loopFigure(args: string[], nodeArgs: readonly string[] = []): Promise<LoopFigure> {
  const typical: number[] = [];
  const firstRun: number[] = [];
  for (let i = 0; i < processes; i++) {
    const run = await runCommand({ label: `peer ${args.join(" ")}`, script: child, args, cwd: __dirname, nodeArgs: ["--expose-gc", ...nodeArgs] });
    const { usPerCall } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { usPerCall: number[] };
    typical.push(median(usPerCall));
    firstRun.push(usPerCall[0]!);
  }
  return { typical: median(typical), firstRun: median(firstRun) };
}

async function startupFigure(kind: string): Promise<{ wallMs: number; rssMiB: number }> {
  const runs: CommandRun[] = [];
  for (let i = 0; i < processes + 2; i++) runs.push(await runCommand({ label: `peer startup ${kind}`, script: child, args: ["startup", kind], cwd: __dirname }));
  return { wallMs: median(runs.map((r) => r.wallSeconds * 1000)), rssMiB: median(runs.map((r) => r.peakRssMiB ?? Number.NaN)) };
}

const met = (ok: boolean) => (ok ? "met" : "MISSED");

/**
 * The peer-style figures of issue #11, measured the way the comparison with the Vercel AI SDK, the
 * OpenAI Agents SDK and LangChain was: a scripted in-process model, a trivial `add(a, b)` tool
 * defined at run time with `new Tool`, a fresh process per measurement and a forced `gc()` before
 * each timed run; every figure is printed next to the bare loop's (`bareLoop.ts`) from the same run.
 */
export async function benchPeer(log: (line: string) => void = console.log): Promise<void> {
  const perCall = new Map<number, { bare: number; toolwright: number }>();
  for (const steps of sequentialSteps) {
    const bareFigure = await loopFigure(["sequential", String(steps), "bare"]);
    const toolwrightFigure = await loopFigure(["sequential", String(steps), "toolwright"]);
    const [bare, toolwright] = [bareFigure.typical, toolwrightFigure.typical];
    perCall.set(steps, { bare, toolwright });
    const ratio = toolwright / bare;
    log(`peer W1, ${String(steps).padStart(3)} sequential steps: toolwright ${fmt(toolwright, 2)} µs per tool call, bare loop ${fmt(bare, 2)} µs = ${fmt(ratio, 1)}× (target ≤ ${targets.perCall}×: ${met(ratio <= targets.perCall)})`);
    // The process's first run alone: it loads ajv and compiles the tool's validator, and V8 has
    // optimised nothing yet; a short-lived process (a serverless function) pays this (informative).
    if (steps === 200) {
      log(`peer W1, 200 sequential steps, first run of the process: toolwright ${fmt(toolwrightFigure.firstRun, 2)} µs per tool call, bare loop ${fmt(bareFigure.firstRun, 2)} µs = ${fmt(toolwrightFigure.firstRun / bareFigure.firstRun, 1)}× (informative)`);
    }
  }
  const first = perCall.get(sequentialSteps[0])!.toolwright;
  const last = perCall.get(sequentialSteps.at(-1)!)!.toolwright;
  const growth = last / first - 1;
  log(`peer W1, growth ${sequentialSteps[0]} → ${sequentialSteps.at(-1)} steps: ${fmt(first, 2)} → ${fmt(last, 2)} µs per call = ${growth >= 0 ? "+" : ""}${fmt(growth * 100, 0)} % (target within ±${targets.growth * 100} %: ${met(Math.abs(growth) <= targets.growth)})`);
  // The same workload with V8's optimising tiers off: how much code a call runs, a figure that moves
  // by a few per cent between runs where the fresh-process ones move by tens (informative).
  const interpreted = ["--no-opt", "--no-sparkplug"];
  const bareWork = (await loopFigure(["sequential", "100", "bare"], interpreted)).typical;
  const toolwrightWork = (await loopFigure(["sequential", "100", "toolwright"], interpreted)).typical;
  log(`peer W1, 100 sequential steps, interpreter only (--no-opt --no-sparkplug): toolwright ${fmt(toolwrightWork, 2)} µs per tool call, bare loop ${fmt(bareWork, 2)} µs = ${fmt(toolwrightWork / bareWork, 1)}× (informative: the work per call)`);
  const bareParallel = (await loopFigure(["parallel", "bare"])).typical;
  const toolwrightParallel = (await loopFigure(["parallel", "toolwright"])).typical;
  const parallelRatio = toolwrightParallel / bareParallel;
  log(
    `peer W2, ${parallelShape.steps} steps × ${parallelShape.callsPerStep} parallel calls: toolwright ${fmt(toolwrightParallel, 2)} µs per tool call, bare loop ${fmt(bareParallel, 2)} µs = ${fmt(parallelRatio, 1)}× (target ≤ ${targets.perCall}×: ${met(parallelRatio <= targets.perCall)})`,
  );
  const bare = await startupFigure("bare");
  for (const kind of ["newTool", "decorated"] as const) {
    const figure = await startupFigure(kind);
    const extraMs = figure.wallMs - bare.wallMs;
    const extraMiB = figure.rssMiB - bare.rssMiB;
    log(
      `peer W3, fresh process, ${startupTools} tools (${kind === "newTool" ? "new Tool" : "decorated, generated module"}), one call: ${fmt(figure.wallMs, 0)} ms / ${fmt(figure.rssMiB, 0)} MiB peak RSS; ` +
        `bare ${fmt(bare.wallMs, 0)} ms / ${fmt(bare.rssMiB, 0)} MiB: +${fmt(extraMs, 0)} ms (target ≤ +${targets.startupWallMs}: ${met(extraMs <= targets.startupWallMs)}), ` +
        `+${fmt(extraMiB, 1)} MiB (target ≤ +${targets.startupRssMiB}: ${met(extraMiB <= targets.startupRssMiB)})`,
    );
  }
}
