import { z } from "zod";
import { type StateSchema, tool } from "toolwright";

/** A source the research agent found. */
export const Source = z.object({ title: z.string(), url: z.string() });
export type Source = z.infer<typeof Source>;

const shelf: readonly (Source & { text: string })[] = [
  { title: "Heat pumps explained", url: "https://example.org/heat-pumps", text: "A heat pump moves heat instead of making it: about three units of heat per unit of electricity." },
  { title: "Heat pumps in cold climates", url: "https://example.org/cold-climates", text: "Cold-climate models keep a COP above 2 down to -15 °C." },
  { title: "Boiler efficiency", url: "https://example.org/boilers", text: "A modern gas boiler turns about 90% of its fuel into heat." },
];

/** The research agent's state: who the text is for (from the coordinator) and the sources it found. */
export const researchState = {
  audience: { type: z.enum(["homeowners", "engineers"]) },
  sources: { type: z.array(Source) },
} satisfies StateSchema;

/** The research agent's tool: searches a small offline library. */
export class LibraryTools {
  /**
   * Search the library; every hit is recorded as a source.
   * @param query What to look for.
   */
  @tool({ outputsToState: { sources: { source: "sources" } } })
  search(query: string): { sources: Source[]; hits: string[] } {
    const words = query.toLowerCase().split(/\W+/).filter(Boolean);
    const hits = shelf.filter((doc) => words.some((word) => `${doc.title} ${doc.text}`.toLowerCase().includes(word)));
    return { sources: hits.map(({ title, url }) => ({ title, url })), hits: hits.map((doc) => `${doc.title} (${doc.url}): ${doc.text}`) };
  }
}

/** Drafts the writer agent published; a real app would call its CMS. */
export const published: Array<{ title: string; body: string }> = [];

/** The writer agent's tool: publishing needs a person's confirmation. */
export class PublishingTools {
  /**
   * Publish the finished article.
   * @param title The article's title.
   * @param body The article's text.
   */
  @tool()
  publish(title: string, body: string): string {
    published.push({ title, body });
    return `published "${title}"`;
  }
}
