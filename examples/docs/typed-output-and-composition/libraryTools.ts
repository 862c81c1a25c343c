import { tool } from "toolwright";

/** The researcher's tools in the composition example: a search over a small library. */
export class LibraryTools {
  /**
   * Search the library for facts on a topic.
   * @param query Words to look for.
   */
  @tool({ outputsToState: { sources: { source: "sources" } } })
  search(query: string): { facts: string[]; sources: string[] } {
    return { facts: [`${query} boils at 100 °C at sea level`], sources: ["physics-handbook"] };
  }
}
