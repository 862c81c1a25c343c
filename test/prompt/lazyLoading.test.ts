describe("the prompt template module", () => {
  it("loads @huggingface/jinja on the first compile, not on import", () => {
    jest.isolateModules(() => {
      let loaded = false;
      jest.doMock("@huggingface/jinja", () => {
        loaded = true;
        return jest.requireActual("@huggingface/jinja");
      });
      const toolwright = require("../../src/index") as typeof import("../../src/index");

      expect(loaded).toBe(false);
      expect(toolwright.escapeTemplateText("{{")).toBe("{{ '{' }}{");
      expect(loaded).toBe(false);
      expect(toolwright.promptTemplate("{{ 1 + 1 }}").render({})).toBe("2");
      expect(loaded).toBe(true);
    });
  });
});
