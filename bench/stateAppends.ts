import { z } from "zod";
import { State } from "toolwright";
import { fmt, median, timeRuns } from "./measure";

const schema = { items: { type: z.array(z.object({ id: z.number(), name: z.string() })) } };

function appendMany(count: number): void {
  const state = new State(schema);
  for (let i = 0; i < count; i++) state.set("items", { id: i, name: `item ${i}` });
}

/** N single-item appends to a list key; linear growth means ms per 1,000 stays flat. */
export async function benchStateAppends(): Promise<string[]> {
  const lines: string[] = [];
  for (const count of [2_500, 10_000, 40_000]) {
    const ms = median(await timeRuns(() => appendMany(count), 7, 2));
    lines.push(`state appends, ${String(count).padStart(6)} items: ${fmt(ms)} ms total, ${fmt((ms / count) * 1000, 2)} ms per 1,000${count === 10_000 ? " (target ≤ 50 ms)" : ""}`);
  }
  return lines;
}
