import { GramFilter } from "./gramFilter";
import { type Match, NeedleAutomaton } from "./needleAutomaton";

/**
 * Finds all needles in `text` at once, in time linear in the text and the needles: for each
 * position where needles end, the longest of them (with its tag from `tags`), so that every
 * occurrence of every needle lies inside a returned match. Needles are compared exactly, code unit
 * by code unit; of two equal needles, the first one's tag is reported.
 */
export function longestMatches(text: string, needles: readonly string[], tags: readonly number[]): Match[] {
  const filter = new GramFilter(text);
  // Most needles do not occur; leaving them out keeps the automaton small.
  const candidates: string[] = [];
  const candidateTags: number[] = [];
  needles.forEach((needle, i) => {
    if (needle.length > text.length || !filter.mayOccur(needle)) return;
    candidates.push(needle);
    candidateTags.push(tags[i]!);
  });
  return candidates.length === 0 ? [] : new NeedleAutomaton(candidates, candidateTags).longestMatches(text);
}
