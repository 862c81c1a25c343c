import { benchLoopOverhead } from "./loopOverhead";
import { benchParallelStep } from "./parallelStep";
import { benchStateAppends } from "./stateAppends";

async function main(): Promise<void> {
  console.log(`toolwright benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
  for (const bench of [benchLoopOverhead, benchParallelStep, benchStateAppends]) {
    for (const line of await bench()) console.log(line);
  }
  const heap = process.memoryUsage();
  console.log(`memory after all runs: rss ${fmt(heap.rss / 2 ** 20)} MiB, heap used ${fmt(heap.heapUsed / 2 ** 20)} MiB`);
}

function fmt(value: number): string {
  return value.toFixed(1);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
