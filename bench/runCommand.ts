import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { median } from "./measure";

/** A Node script to run as a child process. */
export interface NodeCommand {
  /** A short name for reports. */
  readonly label: string;
  /** The script (absolute), run as `node --require <preload> <script> ...args`. */
  readonly script: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Options for node itself, before the script (`--expose-gc`). */
  readonly nodeArgs?: readonly string[];
  /** Exit codes besides 0 that still count as a run (tsc exits 2 when it reports type errors). */
  readonly allowedExitCodes?: readonly number[];
}

/** One run of a command. */
export interface CommandRun {
  readonly wallSeconds: number;
  /** Peak resident set size in MiB (undefined if the process died before its exit handlers ran). */
  readonly peakRssMiB: number | undefined;
  /** CPU time (user + system, all threads) in seconds: less sensitive than wall time to other load on the machine. */
  readonly cpuSeconds: number | undefined;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Median figures of several cold runs. */
export interface CommandFigures {
  readonly label: string;
  readonly wallSeconds: number;
  readonly peakRssMiB: number;
  readonly cpuSeconds: number;
  readonly runs: readonly CommandRun[];
}

const preload = path.join(__dirname, "usagePreload.js");

/**
 * Runs `node <script> ...args` as a fresh process and measures its wall time (spawn to exit, Node's
 * own start-up included — the same for every tool), its peak RSS and its CPU time, which a preloaded
 * script reports from inside the child on exit. Throws when the command fails.
 */
export async function runCommand(command: NodeCommand): Promise<CommandRun> {
  if (!fs.existsSync(preload)) throw new Error(`${preload} is missing; run \`npm run build\`.`);
  const rssFile = path.join(os.tmpdir(), `toolwright-bench-usage-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const start = performance.now();
  const child = spawn(process.execPath, [...(command.nodeArgs ?? []), "--require", preload, command.script, ...command.args], {
    cwd: command.cwd,
    env: { ...process.env, TOOLWRIGHT_BENCH_USAGE_FILE: rssFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  let end = start;
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      end = performance.now();
      resolve(code);
    });
  });
  // 'close' comes once stdio has drained too, which may be after 'exit'.
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  const [exitCode] = await Promise.all([exited, closed]);
  const wallSeconds = (end - start) / 1000;
  let peakRssMiB: number | undefined;
  let cpuSeconds: number | undefined;
  if (fs.existsSync(rssFile)) {
    const usage = JSON.parse(fs.readFileSync(rssFile, "utf8")) as { maxRSS: number; cpuMicros: number };
    peakRssMiB = usage.maxRSS / 1024;
    cpuSeconds = usage.cpuMicros / 1e6;
    fs.rmSync(rssFile, { force: true });
  }
  const run = { wallSeconds, peakRssMiB, cpuSeconds, exitCode, stdout: Buffer.concat(stdout).toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8") };
  if (exitCode !== 0 && !(exitCode !== null && command.allowedExitCodes?.includes(exitCode))) {
    throw new Error(`${command.label} exited with ${exitCode} (${[command.script, ...command.args].join(" ")} in ${command.cwd}):\n${run.stderr.slice(-2000)}${run.stdout.slice(-2000)}`);
  }
  return run;
}

/** The median wall time, peak RSS and CPU time of cold runs (each a fresh process). */
export function summarise(label: string, runs: readonly CommandRun[]): CommandFigures {
  return {
    label,
    wallSeconds: median(runs.map((r) => r.wallSeconds)),
    peakRssMiB: median(runs.map((r) => r.peakRssMiB ?? Number.NaN)),
    cpuSeconds: median(runs.map((r) => r.cpuSeconds ?? Number.NaN)),
    runs,
  };
}
