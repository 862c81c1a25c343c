// A compiled script run as a real child process for the cross-process tests: started, awaited until
// it prints its ready line, its output kept for failure messages, stopped with SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";

export interface RunningProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** The match of the ready pattern (its groups carry what the process announced, e.g. its URL). */
  readonly ready: RegExpMatchArray;
  /** Every line the process printed so far, stdout and stderr. */
  lines(): readonly string[];
  /** SIGTERM (when still running), then how it exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node script` with `env` added and resolves once a printed line matches `ready` (within 15 s). */
export async function startProcess(name: string, script: string, env: Record<string, string>, ready: RegExp): Promise<RunningProcess> {
  if (!existsSync(script)) throw new Error(`${script} is missing; run \`npm run build\` first (npm test does).`);
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} printed no line matching ${ready} within 15 s:\n${lines.join("\n")}`)), 15_000);
    const onLine = (line: string) => {
      lines.push(line);
      const found = ready.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${lines.join("\n")}`));
    });
  });
  return {
    name,
    child,
    ready: match,
    lines: () => lines,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
