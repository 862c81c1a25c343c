// One measurement in a fresh process, the way the peer comparison measured (issue #11):
//   node --expose-gc dist/bench/peer/child.js sequential <steps> <bare|toolwright>
//   node --expose-gc dist/bench/peer/child.js parallel <bare|toolwright>
//   node dist/bench/peer/child.js startup <bare|newTool|decorated>
// The first two print one JSON line { usPerCall: number[] }: microseconds per tool call of each
// timed run, each run preceded by a forced gc(). `startup` builds 50 tools and runs one call; the
// parent measures the process's wall time and peak RSS.
import { runBare, type BareShape } from "./bareLoop";

/** Timed runs per process; the parent takes their median. */
const timedRuns = 5;
/** Steps and calls per step of the parallel workload (W2). */
export const parallelShape = { steps: 50, callsPerStep: 10 } as const;
/** Tools defined in the start-up workload (W3). */
export const startupTools = 50;

type Impl = "bare" | "toolwright";

async function timed(run: () => Promise<unknown>, calls: number): Promise<number[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run with node --expose-gc: every timed run starts after a forced gc()");
  const usPerCall: number[] = [];
  for (let i = 0; i < timedRuns; i++) {
    gc();
    const start = process.hrtime.bigint();
    await run();
    usPerCall.push(Number(process.hrtime.bigint() - start) / 1000 / calls);
  }
  return usPerCall;
}

async function loopWorkload(impl: Impl, shape: BareShape): Promise<number[]> {
  const calls = shape.steps * shape.callsPerStep;
  if (impl === "bare") return timed(() => runBare(shape), calls);
  // Loaded only here, so that the bare loop's process never loads toolwright.
  const { toolwrightAgent } = await import("./toolwrightLoop");
  const agent = toolwrightAgent(shape);
  const { ChatMessage } = await import("toolwright");
  return timed(() => agent.run({ messages: [ChatMessage.fromUser("go")] }), calls);
}

async function startup(kind: string): Promise<void> {
  if (kind === "bare") {
    await runBare({ steps: 1, callsPerStep: 1, tools: startupTools });
    return;
  }
  const { runStartup } = await import("./toolwrightStartup");
  await runStartup(kind === "decorated" ? "decorated" : "newTool", startupTools);
}

async function main(argv: readonly string[]): Promise<void> {
  const [workload, ...rest] = argv;
  if (workload === "sequential") {
    const steps = Number(rest[0]);
    console.log(JSON.stringify({ usPerCall: await loopWorkload(rest[1] as Impl, { steps, callsPerStep: 1 }) }));
  } else if (workload === "parallel") {
    console.log(JSON.stringify({ usPerCall: await loopWorkload(rest[0] as Impl, parallelShape) }));
  } else if (workload === "startup") {
    await startup(rest[0]!);
  } else {
    throw new Error(`unknown workload ${String(workload)}`);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
