import { tool } from "toolwright";

/** The long-conversations example's archive: every search returns a long page. */
export class ArchiveTools {
  constructor(private readonly db: Map<string, string>) {}

  /**
   * Search the archive.
   * @param query What to look for.
   */
  @tool({ name: "search_archive" })
  search(query: string): string {
    return this.db.get(query) ?? `Nothing about ${query}.`;
  }
}
