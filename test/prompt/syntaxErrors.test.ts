import { promptTemplate, PromptTemplateError } from "toolwright";

const compile = (source: string) => () => promptTemplate(source, { name: "systemPrompt" });
const syntax = (line: number, message: string) => `systemPrompt template has a syntax error on line ${line}: ${message}; fix the template's Jinja syntax.`;

describe("promptTemplate with a syntax error", () => {
  it("names the template and the line where parsing stopped", () => {
    expect(compile("line1\nline2 {{ x } }}")).toThrow(syntax(2, "Parser Error: Expected closing expression token. CloseCurlyBracket !== CloseExpression"));
    expect(compile("x\n{{ x }}\n{% endif %}")).toThrow(syntax(3, "Unknown statement type: endif"));
    expect(compile("{% for x in %}{% endfor %}")).toThrow(syntax(1, "Unexpected token: CloseStatement"));
  });

  it("names the line where lexing stopped, counting \\r\\n as one line break", () => {
    expect(compile("line1\n\nline3 {{ 'abc }}")).toThrow(syntax(3, "Unexpected end of input"));
    expect(compile("a\r\nb\r\n{{ @ }}")).toThrow(syntax(3, "Unexpected character: @"));
    expect(compile("{{ 'a\\q' }}")).toThrow(syntax(1, "Unexpected escaped character: q"));
    expect(compile("{# unclosed")).toThrow(syntax(1, "Missing end of comment tag"));
  });

  it("says where a template ends inside an unclosed block", () => {
    expect(compile("Hello\n{% if x %}\nA")).toThrow(
      "systemPrompt template ends (on line 3) inside a block or an expression: close every {% if %}, {% for %}, {% macro %}, {{ and bracket it opens.",
    );
  });

  it("rejects tags Jinja's templates may use that the interpreter lacks, and the transformers-only generation tag", () => {
    expect(compile("{% raw %}{{ x }}{% endraw %}")).toThrow(syntax(1, "Unknown statement type: raw"));
    expect(compile("{% include 'header' %}")).toThrow(syntax(1, "Unknown statement type: include"));
    expect(compile("{% generation %}x{% endgeneration %}")).toThrow(syntax(1, "Unknown statement type: generation"));
  });

  it("rejects an unknown filter or test when it compiles, listing the known ones", () => {
    expect(compile("a\n{{ x | wordwrap }}")).toThrow(
      "systemPrompt template uses the filter 'wordwrap', which toolwright's templates do not have: use one of abs, bool, capitalize, count, d, default, dictsort, first, float, get, indent, int, items, join, keys, last, length, list, lower, map, rejectattr, replace, reverse, safe, selectattr, sort, string, title, tojson, trim, unique, upper, values.",
    );
    expect(compile("{% filter wordwrap %}x{% endfilter %}")).toThrow("systemPrompt template uses the filter 'wordwrap'");
    expect(compile("{{ x is divisibleby }}")).toThrow(
      "systemPrompt template uses the test 'divisibleby', which toolwright's templates do not have: use one of boolean, callable, defined, eq, equalto, even, false, integer, iterable, lower, mapping, none, number, odd, sequence, string, true, undefined, upper.",
    );
  });

  it("rejects break and continue outside a loop, a macro's body included", () => {
    const outside = (tag: string) => `systemPrompt template uses {% ${tag} %} outside a {% for %} loop: move it into the loop's body.`;

    expect(compile("{% break %}")).toThrow(outside("break"));
    expect(compile("{% for x in xs %}{% macro m() %}{% continue %}{% endmacro %}{% endfor %}")).toThrow(outside("continue"));
    expect(promptTemplate("{% for x in xs %}{% if x > 1 %}{% break %}{% endif %}{{ x }}{% endfor %}").render({ xs: [1, 2, 3] })).toBe("1");
  });

  it("throws PromptTemplateErrors that keep the parser's error as the cause", () => {
    const error = (() => {
      try {
        compile("{{ }}")();
      } catch (caught) {
        return caught;
      }
    })() as PromptTemplateError;

    expect(error).toBeInstanceOf(PromptTemplateError);
    expect(error.template).toBe("systemPrompt");
    expect(error.variable).toBeUndefined();
    expect((error.cause as Error).message).toBe("Unexpected token: CloseExpression");
  });
});
