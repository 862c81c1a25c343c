// Preloaded with `node --require` into every measured child process: on exit, writes the process's
// resource usage — peak resident set size (maxRSS, KiB) and CPU time (user + system, µs) — as JSON
// to the file named by TOOLWRIGHT_BENCH_USAGE_FILE. Imports nothing beyond node:fs, so it adds
// nothing measurable.
import * as fs from "node:fs";

const target = process.env.TOOLWRIGHT_BENCH_USAGE_FILE;
if (target) {
  // Not inherited by anything the measured process itself starts.
  delete process.env.TOOLWRIGHT_BENCH_USAGE_FILE;
  process.on("exit", () => {
    try {
      const usage = process.resourceUsage();
      fs.writeFileSync(target, JSON.stringify({ maxRSS: usage.maxRSS, cpuMicros: usage.userCPUTime + usage.systemCPUTime }));
    } catch {
      // The figures are then missing; the run itself is not affected.
    }
  });
}
