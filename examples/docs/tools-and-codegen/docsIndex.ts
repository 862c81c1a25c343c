/** A search index over a handful of documentation pages, for the tools guide's defineTool example. */
export const index = {
  async search(query: string): Promise<string[]> {
    const pages = ["State: typed keys and merge handlers", "Tools and codegen", "Scaling out with BullMQ"];
    return pages.filter((page) => page.toLowerCase().includes(query.toLowerCase()));
  },
};
