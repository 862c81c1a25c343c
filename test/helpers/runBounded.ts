import { spawn } from "node:child_process";
import * as path from "node:path";

const tsx = path.join(__dirname, "../../node_modules/tsx/dist/cli.mjs");
const runner = path.join(__dirname, "boundedRun.ts");

/**
 * Runs `exported(...args)` of the module `file` in a child process and returns its JSON result.
 * Why a child: code that could stall the event loop (a backtracking regular expression) cannot be
 * interrupted by a jest timeout, but a child can be killed; one killed after `killAfterMs` makes
 * this reject, so a stall fails the test instead of hanging the suite.
 */
export function runBounded<T>(file: string, exported: string, args: readonly unknown[], killAfterMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, runner, file, exported, JSON.stringify(args)], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL") reject(new Error(`${exported} did not finish within ${killAfterMs} ms and was killed (a stall)`));
      else if (code !== 0) reject(new Error(`${exported} exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}
