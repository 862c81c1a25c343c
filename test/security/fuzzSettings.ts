import fc from "fast-check";

/**
 * How many cases each security property checks: a fast setting in `npm test`, and `FUZZ_RUNS`
 * (10,000 in `npm run fuzz`) for the long run. Test names carry the count, so `npm run fuzz`
 * prints how many cases every property passed.
 */
export function fuzzRuns(fast: number): number {
  const fromEnv = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fast;
}

/** A jest timeout for a property of `runs` cases that each take up to `msPerCase`. */
export function fuzzTimeout(runs: number, msPerCase: number): number {
  return Math.max(20_000, runs * msPerCase);
}

/** fast-check parameters shared by every property: the run count, and a seed from FUZZ_SEED to replay a failure. */
export function fuzzParameters(runs: number): fc.Parameters<unknown> {
  const seed = Number(process.env.FUZZ_SEED);
  return { numRuns: runs, ...(Number.isInteger(seed) && { seed }) };
}
