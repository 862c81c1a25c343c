import fc from "fast-check";
import { escapeTemplateText, promptTemplate } from "toolwright";

const rendered = (text: string) => promptTemplate(escapeTemplateText(text)).render({});

describe("escapeTemplateText", () => {
  it("leaves text without tag openers, carriage returns or a final newline unchanged", () => {
    expect(escapeTemplateText("Answer in {language}, 100% sure; a } or # alone is text.\nBye")).toBe("Answer in {language}, 100% sure; a } or # alone is text.\nBye");
  });

  it("escapes tag openers, carriage returns and a final newline", () => {
    expect(escapeTemplateText("Use {{ name }} and {% if %} and {# c #}.")).toBe("Use {{ '{' }}{ name }} and {{ '{' }}% if %} and {{ '{' }}# c #}.");
    expect(escapeTemplateText("a\r\nb\n")).toBe("a{{ '\\r' }}\nb{{ '\\n' }}");
    expect(escapeTemplateText("{{{\n")).toBe("{{ '{' }}{{ '{' }}{{ '{' }}{{ '\\n' }}");
  });

  it("makes a template that renders exactly the text, whatever it holds", () => {
    const piece = fc.oneof(
      fc.constantFrom("{", "}", "%", "#", "{{", "{%", "{#", "}}", "%}", "#}", "{%-", "-%}", "'", '"', "\\", "\n", "\r", "\r\n", " ", "-", "é", "😀", "\ud800", "\u2028"),
      fc.string({ unit: "grapheme", maxLength: 3 }),
    );

    fc.assert(
      fc.property(fc.string({ unit: piece, maxLength: 40 }), (text) => {
        expect(rendered(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
