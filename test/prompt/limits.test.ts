import { promptTemplate } from "toolwright";
import { templateLimits } from "../../src/prompt/templateLimits";

const render = (source: string, values: Record<string, unknown> = {}) => promptTemplate(source, { name: "systemPrompt" }).render(values);

const budget =
  "systemPrompt template exceeded its budget of 1,000,000 steps: it loops or copies too much; loop over less data, or do the work before rendering and pass the result as a variable.";
const tooLong = (size: string, made = false) => `systemPrompt template ${made ? "made" : "would make"} a string of ${size} on its output and on any string it makes: render less text.`;
const overLimit = tooLong("more than 1,000,000 characters, the limit");

// Each case would hang or take gigabytes without its limit; the assertions are on the error only.
describe("promptTemplate limits", () => {
  it("has the documented limits", () => {
    expect(templateLimits).toEqual({
      maxSourceLength: 100_000,
      maxOutputLength: 1_000_000,
      maxSteps: 1_000_000,
      charactersPerStep: 10,
      stepsPerIteration: 10,
      maxSyntaxDepth: 100,
      maxEvaluationDepth: 400,
      maxValueDepth: 128,
      maxContextValues: 1_000_000,
    });
  });

  it("refuses a source longer than 100,000 characters", () => {
    expect(() => promptTemplate("x".repeat(100_001), { name: "systemPrompt" })).toThrow(
      "systemPrompt template is 100,001 characters long, more than the limit of 100,000: shorten it, or pass long text as a variable.",
    );
    expect(promptTemplate("x".repeat(100_000)).render({})).toHaveLength(100_000);
  });

  it("compiles a template with long runs of whitespace", () => {
    expect(promptTemplate(`${" ".repeat(49_000)}{{ x }}${"\n".repeat(49_000)}`).render({ x: 1 })).toHaveLength(49_000 + 1 + 48_999);
  });

  it("stops a loop over a huge range before making the list", () => {
    expect(() => render("{% for i in range(100000000) %}{{ i }}{% endfor %}")).toThrow(budget);
    expect(() => render("{{ range(100000000) | length }}")).toThrow(budget);
  });

  it("stops nested loops", () => {
    expect(() => render("{% for i in range(100000) %}{% for j in range(100000) %}{{ i }}{% endfor %}{% endfor %}")).toThrow(budget);
  });

  it("stops work repeated over a large value", () => {
    expect(() => render("{% set s = 'x' * 1000000 %}{% for i in range(100000) %}{% set t = s | upper %}{% endfor %}")).toThrow(budget);
    expect(() => render("{% set l = range(50000) %}{% for i in range(100000) %}{% if i in l %}{% endif %}{% endfor %}")).toThrow(budget);
  });

  it("stops a list that doubles in a loop", () => {
    expect(() => render("{% set ns = namespace(l=['x']) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}")).toThrow(budget);
  });

  it("stops a macro that calls itself without end", () => {
    expect(() => render("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}")).toThrow(
      "systemPrompt template nests calls more than 400 levels deep while rendering, the limit: make a macro that calls itself stop sooner.",
    );
  });

  it("refuses string repetition past the output limit without making the string", () => {
    expect(() => render("{{ 'a' * 500000000 }}")).toThrow(tooLong("500,000,000 characters, more than the limit of 1,000,000"));
  });

  it("refuses an output longer than 1,000,000 characters", () => {
    expect(() => render("{{ 'a' * 600000 }}{{ 'a' * 600000 }}")).toThrow(tooLong("1,200,000 characters, more than the limit of 1,000,000", true));
    expect(() => render("{% for i in range(20) %}{{ text }}{% endfor %}", { text: "b".repeat(100_000) })).toThrow(tooLong("2,000,000 characters, more than the limit of 1,000,000", true));
  });

  it("refuses join, indent and replace whose output would outgrow the limit, before making it", () => {
    expect(() => render("{{ range(10000) | join('x' * 1000) }}")).toThrow(overLimit);
    expect(() => render("{{ text | join('-') }}", { text: "y".repeat(600_000) })).toThrow(overLimit);
    expect(() => render("{{ ('a\\n' * 1000) | indent(100000) }}")).toThrow(tooLong("100,102,000 characters, more than the limit of 1,000,000"));
    expect(() => render("{{ 'abc'.replace('', 'x' * 900000) }}")).toThrow(tooLong("3,600,003 characters, more than the limit of 1,000,000"));
    expect(() => render("{{ ('a' * 1000) | replace('a', 'b' * 1001) }}")).toThrow(tooLong("1,001,000 characters, more than the limit of 1,000,000"));
  });

  it("refuses to print a list that holds a long list many times over", () => {
    const source = "{% set s = 'x' * 1000 %}{% set l = [s,s,s,s,s,s,s,s,s,s] %}{% set l = [l,l,l,l,l,l,l,l,l,l] %}{% set l = [l,l,l,l,l,l,l,l,l,l] %}";

    expect(() => render(`${source}{{ l }}`)).toThrow(overLimit);
    expect(() => render(`${source}{{ l | tojson }}`)).toThrow(overLimit);
    expect(() => render(`${source}{{ l == 'x' }}`)).toThrow(overLimit);
    expect(() => render(`${source}{{ [l] | join }}`)).toThrow(overLimit);
  });

  it("refuses values nested deeper than 128 levels, and a namespace that holds itself", () => {
    const deep = "systemPrompt template made a value nested more than 128 levels deep, the limit: build flatter values.";

    expect(() => render("{% set ns = namespace(a=[]) %}{% for i in range(200) %}{% set ns.a = [ns.a] %}{% endfor %}{{ ns.a }}")).toThrow(deep);
    expect(() => render("{% set ns = namespace() %}{% set ns.self = ns %}{{ ns }}")).toThrow(deep);
  });

  it("refuses blocks and expressions nested more than 100 levels deep", () => {
    const nested = "systemPrompt template nests blocks and expressions more than 100 levels deep, the limit: split it into smaller expressions (a {% set %} for a part) and blocks.";

    expect(() => promptTemplate(`{{ ${"[".repeat(150)}1${"]".repeat(150)} }}`, { name: "systemPrompt" })).toThrow(nested);
    expect(() => promptTemplate(`{{ ${Array(150).fill("1").join(" + ")} }}`, { name: "systemPrompt" })).toThrow(nested);
    expect(promptTemplate(`{{ ${"(".repeat(150)}1${")".repeat(150)} }}`).render({})).toBe("1");
    // Deep enough to overflow the parser's own recursion.
    expect(() => promptTemplate(`{{ ${"(".repeat(5000)}1${")".repeat(5000)} }}`, { name: "systemPrompt" })).toThrow(nested);
    expect(() => promptTemplate(`${"{% if x %}".repeat(120)}${"{% endif %}".repeat(120)}`, { name: "systemPrompt" })).toThrow(nested);
  });

  it("refuses range arguments that are not integers", () => {
    expect(() => render("{{ range('a') }}")).toThrow(
      "systemPrompt template failed while rendering: range() takes one to three integers: range(stop), range(start, stop) or range(start, stop, step); fix the template, or the values it is given.",
    );
    expect(render("{{ range(3)|list }} {{ range(1, 7, 2)|list }} {{ range(3, 0, -1)|list }}")).toBe("[0, 1, 2] [1, 3, 5] [3, 2, 1]");
  });

  it("refuses variables nested deeper than 128 levels or holding more than 1,000,000 values", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 130; i++) deep = [deep];

    expect(() => render("{{ deep }}", { deep })).toThrow(
      `systemPrompt template uses variable 'deep', which nests deeper than 128 levels at deep${"[0]".repeat(128)}, the limit for template values: pass a flatter value.`,
    );
    expect(() => render("{{ big | length }}", { big: new Array(1_000_000).fill(0) })).toThrow(
      "systemPrompt template uses variable 'big', whose values, with the other variables', number more than 1,000,000, the limit for one render: pass less data.",
    );
  });
});
