import { z } from "zod";
import { type Integer, type MergeHandler, type State, type StateSchema, tool } from "toolwright";
import { type Library, Source } from "./library";

/** Keeps one entry per URL, in the order first seen: the custom merge handler of `sources`. */
export const dedupeSources: MergeHandler<Source[]> = (current, incoming) => {
  const merged = [...(current ?? [])];
  for (const source of ([] as Source[]).concat(incoming)) if (!merged.some((s) => s.url === source.url)) merged.push(source);
  return merged;
};

/** The research assistant's state: sources (de-duplicated by URL) and notes. */
export const researchState = {
  sources: { type: z.array(Source), handler: dedupeSources },
  notes: { type: z.array(z.string()) },
} satisfies StateSchema;

export type ResearchState = typeof researchState;

/** Tools of a research assistant that collects sources and notes while it reads. */
export class ResearchTools {
  constructor(private readonly library: Library) {}

  /**
   * Search the library. Every hit is recorded as a source.
   * @param query What to look for.
   * @param limit Maximum number of hits.
   */
  @tool({ outputsToState: { sources: { source: "sources" } } })
  search(query: string, limit: Integer = 3): { sources: Source[]; hits: Array<{ url: string; title: string; text: string }> } {
    const hits = this.library.search(query, limit);
    return { sources: hits.map(({ url, title }) => ({ url, title })), hits: hits.map(({ url, title, text }) => ({ url, title, text })) };
  }

  /**
   * Record a finding, citing the sources it comes from. Reads the sources collected so far to check the citations.
   * @param finding One sentence the answer will rely on.
   * @param citations URLs of the sources the finding comes from.
   */
  @tool({ name: "take_note" })
  takeNote(finding: string, citations: string[], state: State<ResearchState>): string {
    const known = new Set(state.get("sources", []).map((s) => s.url));
    const unknown = citations.filter((url) => !known.has(url));
    if (unknown.length > 0) throw new Error(`cite only sources found by search; unknown: ${unknown.join(", ")}`);
    state.set("notes", `${finding} [${citations.join(", ")}]`);
    return `noted (${state.get("notes", []).length} notes so far)`;
  }
}
