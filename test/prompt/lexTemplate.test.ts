import { tokenize } from "@huggingface/jinja";
import fc from "fast-check";
import { lexTemplate } from "../../src/prompt/lexTemplate";

const tokensOf = (lex: () => { type: string; value: string }[]) => {
  try {
    return lex().map((token) => [token.type, token.value]);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
};

describe("lexTemplate", () => {
  it("splits templates into the same tokens, and fails with the same messages, as @huggingface/jinja's tokenize with Jinja's defaults", () => {
    const piece = fc.constantFrom(
      ..."{{ }} {% %} {# #} {%- -%} {{- -}} x y1 _ 1 1.5 - + -1 . ( ) [ ] { } | , : == != <= >= < > * ** / // % ~ = ! @ if for in not is and or endif endfor".split(" "),
      " ",
      "\n",
      "\t",
      "'a'",
      '"b\\n"',
      "'\\x41'",
      "'\\u00e9'",
      "'\\q'",
      "'",
      "é",
    );

    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const source = pieces.join("");
        expect(tokensOf(() => lexTemplate(source).tokens)).toEqual(tokensOf(() => tokenize(source, { lstrip_blocks: false, trim_blocks: false })));
      }),
      { numRuns: 3000 },
    );
  });

  it("turns \\r\\n and \\r into \\n and drops one trailing newline, as Jinja does", () => {
    expect(lexTemplate("a\r\nb\rc\n\n").source).toBe("a\nb\nc\n");
  });

  it("records where each token starts", () => {
    const { tokens, offsets } = lexTemplate("Hi {{ name }}!");

    expect(tokens.map((token, i) => [token.value, offsets[i]])).toEqual([
      ["Hi ", 0],
      ["{{", 3],
      ["name", 6],
      ["}}", 11],
      ["!", 13],
    ]);
  });
});
