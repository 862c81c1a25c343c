/**
 * The known name closest to a misspelt one, for "did you mean" hints: the same name in another
 * case or with `_`/`-` (`max_agent_steps` → `maxAgentSteps`), else one at most two edits away
 * (a third of its length for short names). Undefined when none is close.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const folded = fold(name);
  const same = known.find((candidate) => fold(candidate) === folded);
  if (same !== undefined) return same;
  const limit = Math.min(2, Math.floor(folded.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = editDistance(folded, fold(candidate), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

// Levenshtein distance, giving up (returning `cap`) once every path exceeds it.
function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap || a.length > 200 || b.length > 200) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      rowMin = Math.min(rowMin, current[j]!);
    }
    if (rowMin >= cap) return cap;
    previous = current;
  }
  return Math.min(previous[b.length]!, cap);
}
