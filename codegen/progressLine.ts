import type { AnalysisProgress } from "./generate";

/** A line that shows how far codegen is, rewritten in place; it writes nothing unless `stream` is a terminal. */
export interface ProgressLine {
  update(progress: AnalysisProgress): void;
  /** Erases the line, before the result is printed. */
  clear(): void;
}

/**
 * `toolwright codegen: 120/480 files, 35 tools, 2.1 s` on a terminal, at most every `everyMs` (and
 * always for the first and the last file). Never on a pipe or a file (CI logs, tests): there a
 * carriage return would only add noise.
 */
export function progressLine(stream: NodeJS.WritableStream, now: () => number = () => performance.now(), everyMs = 100): ProgressLine {
  if ((stream as { isTTY?: boolean }).isTTY !== true) return { update: () => undefined, clear: () => undefined };
  const started = now();
  let shown = false;
  let lastAt = -Infinity;
  return {
    update(progress) {
      const at = now();
      const last = progress.files === progress.totalFiles;
      if (shown && !last && at - lastAt < everyMs) return;
      lastAt = at;
      shown = true;
      const tools = `${progress.tools} tool${progress.tools === 1 ? "" : "s"}`;
      stream.write(`\r\x1b[Ktoolwright codegen: ${progress.files}/${progress.totalFiles} files, ${tools}, ${((at - started) / 1000).toFixed(1)} s`);
    },
    clear() {
      if (shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}
