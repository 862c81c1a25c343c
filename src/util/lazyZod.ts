import type { z } from "zod";

let loaded: typeof z | undefined;

/**
 * zod, required the first time something needs it: importing toolwright does not load it, and a run
 * whose state schema and tools use no zod never does (zod is ~27 ms and ~12 MiB at start-up). An
 * app with a zod state schema or zod tool parameters has loaded it already.
 */
export function zod(): typeof z {
  return (loaded ??= (require("zod") as { z: typeof z }).z);
}
