import { performance } from "node:perf_hooks";

/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs `fn` `repeats` times after `warmups` unmeasured runs; returns each run's wall time in ms. */
export async function timeRuns(fn: () => Promise<unknown> | unknown, repeats: number, warmups = 1): Promise<number[]> {
  for (let i = 0; i < warmups; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** Formats a number with a fixed number of decimals. */
export function fmt(value: number, decimals = 1): string {
  return value.toFixed(decimals);
}
