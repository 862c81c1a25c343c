import { z } from "zod";

/** A source the assistant can cite. */
export const Source = z.object({ url: z.string(), title: z.string() });
export type Source = z.infer<typeof Source>;

/** A document in the example's offline library. */
export interface Document extends Source {
  text: string;
  topics: string[];
}

/** A tiny offline search index standing in for a web or document search API. */
export class Library {
  constructor(private readonly documents: readonly Document[]) {}

  search(query: string, limit: number): Document[] {
    const words = query.toLowerCase().split(/\W+/).filter((w) => w.length > 2);
    return this.documents
      .map((doc) => ({ doc, score: words.filter((w) => doc.text.toLowerCase().includes(w) || doc.topics.includes(w)).length }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map((hit) => hit.doc);
  }
}

/** The documents the example searches. */
export function demoLibrary(): Library {
  return new Library([
    { url: "https://example.org/heat-pumps", title: "How heat pumps work", topics: ["heat", "pumps", "energy"], text: "Heat pumps move heat instead of making it; a COP of 3 means three units of heat per unit of electricity." },
    { url: "https://example.org/cold-climates", title: "Heat pumps in cold climates", topics: ["heat", "pumps", "cold"], text: "Modern cold-climate heat pumps keep a COP above 2 down to -15 °C." },
    { url: "https://example.org/gas-boilers", title: "Gas boiler efficiency", topics: ["gas", "boilers", "energy"], text: "A condensing gas boiler turns about 90 % of the gas energy into heat." },
  ]);
}
