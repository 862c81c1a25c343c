import { ChatMessage, isPromptTemplate, promptTemplate, PromptTemplateError } from "toolwright";

const render = (source: string, values: Record<string, unknown> = {}) => promptTemplate(source).render(values);

// Expected outputs were produced by Python's jinja2 3.1.6 (SandboxedEnvironment with default
// settings, as Haystack's prompt builders use it) from the same templates and values.
describe("promptTemplate", () => {
  it("renders Haystack's question-answering prompt as Jinja does", () => {
    const source = [
      "Given the following information, answer the question.",
      "",
      "Context:",
      "{% for document in documents %}",
      "    {{ document.content }}",
      "{% endfor %}",
      "",
      "Question: {{question}}",
      "Answer:",
      "",
    ].join("\n");

    const text = render(source, { documents: [{ content: "Paris is in France." }, { content: "Berlin is in Germany." }], question: "Where is Paris?" });

    expect(text).toBe(
      "Given the following information, answer the question.\n\nContext:\n\n    Paris is in France.\n\n    Berlin is in Germany.\n\n\nQuestion: Where is Paris?\nAnswer:",
    );
  });

  it("keeps the newlines around blocks, as Jinja's defaults do (no trim_blocks, no lstrip_blocks)", () => {
    expect(render("{% if x %}\nA\n{% endif %}\n", { x: true })).toBe("\nA\n");
    expect(render("{% if x %}\nA\n{% endif %}\n", { x: false })).toBe("");
    expect(render("  {% for x in xs %}\n  - {{ x }}\n  {% endfor %}\nend", { xs: ["a", "b"] })).toBe("  \n  - a\n  \n  - b\n  \nend");
  });

  it("strips whitespace at - markers, and comments print nothing", () => {
    expect(render("{%- for x in xs -%}\n  {{ x }}\n{%- endfor %}\n", { xs: ["a", "b"] })).toBe("ab");
    expect(render("Hello {{ name }}!\n\n{%- if extra %}\n{{ extra }}\n{%- endif %}\n", { name: "Ann", extra: "More" })).toBe("Hello Ann!\nMore");
    expect(render("{# comment #}\n{{ x }}\n\n", { x: 1 })).toBe("\n1\n");
  });

  it("turns \\r\\n and \\r into \\n and drops one trailing newline, as Jinja does", () => {
    expect(render("a\r\nb\rc\n")).toBe("a\nb\nc");
  });

  it("applies upper, join, length, default and tojson as Jinja does", () => {
    const text = render("{{ x|upper }} {{ xs|join(', ') }} {{ xs|length }} {{ y|default('n/a') }} {{ d|tojson }}", { x: "hi", xs: ["a", "b"], d: { b: 1, a: "<é>'&" } });

    expect(text).toBe('HI a, b 2 n/a {"a": "\\u003c\\u00e9\\u003e\\u0027\\u0026", "b": 1}');
  });

  it("indents tojson output as Python's json.dumps does", () => {
    expect(render("{{ d|tojson(indent=2) }}", { d: { b: [1, 2.5, true, null], a: {} } })).toBe('{\n  "a": {},\n  "b": [\n    1,\n    2.5,\n    true,\n    null\n  ]\n}');
  });

  it("reads (messages|last).text, role and content of ChatMessages", () => {
    const messages = [ChatMessage.fromUser("Where is Paris?"), ChatMessage.fromAssistant("In France.", { meta: { model: "m" } })];

    const text = render("{{ (messages|last).text }} {{ messages[0].role }} {{ messages|length }} {{ messages[1].content[0].text }} {{ messages[1].meta.model }}", { messages });

    expect(text).toBe("In France. user 2 In France. m");
  });

  it("gives a ChatMessage without text a text of None, as Haystack's does", () => {
    const call = ChatMessage.fromAssistant(undefined, { toolCalls: [{ id: "c1", toolName: "search", arguments: { q: "x" } }] });

    expect(render("{{ m.text }} {{ m.content[0].tool_call.tool_name }}", { m: call })).toBe("None search");
  });

  it("prints booleans, none, numbers, lists and mappings as Jinja does", () => {
    expect(render("{{ true }} {{ none }} {{ 1.0 }} {{ 0.00001 }} {{ 3 }} {{ 2.5 }} {{ 'a' ~ true ~ none ~ 1.5 }}")).toBe("True None 1.0 1e-05 3 2.5 aTrueNone1.5");
    expect(render("{{ xs }} | {{ d }}", { xs: ["it's", 'say "hi"', "tab\t", "é", "\u200b"], d: { a: null, b: [1, { c: true }] } })).toBe(
      `["it's", 'say "hi"', 'tab\\t', 'é', '\\u200b'] | {'a': None, 'b': [1, {'c': True}]}`,
    );
    expect(render("{{ x|string }}|{{ 1.5|string }}|{{ true|string }}", { x: [1, "a"] })).toBe("[1, 'a']|1.5|True");
  });

  it("repeats strings as Python does, which @huggingface/jinja does not", () => {
    expect(render("{{ 'ab' * 3 }}|{{ 3 * 'ab' }}|{{ 'ab' * 0 }}|{{ 'ab' * -1 }}")).toBe("ababab|ababab||");
  });

  it("runs loops, macros, namespaces, set blocks and filter blocks", () => {
    expect(render("{% for x in xs %}{{ loop.index }}{{ loop.first }}{{ loop.last }}{{ loop.length }} {% endfor %}", { xs: ["a", "b"] })).toBe("1TrueFalse2 2FalseTrue2 ");
    expect(render("{% set ns = namespace(n=0) %}{% for x in xs %}{% set ns.n = ns.n + x %}{% endfor %}{{ ns.n }}", { xs: [1, 2, 3] })).toBe("6");
    expect(render("{% macro greet(name, greeting='Hi') %}{{ greeting }}, {{ name }}!{% endmacro %}{{ greet('Ann') }} {{ greet('Bob', greeting='Yo') }}")).toBe("Hi, Ann! Yo, Bob!");
    expect(render("{% set x %}inner {{ 1 }}{% endset %}[{{ x }}]")).toBe("[inner 1]");
    expect(render("{% filter upper %}abc {{ 'd' }}{% endfilter %}")).toBe("ABC D");
    expect(render("{{ users|selectattr('active')|map(attribute='name')|join(', ') }}", { users: [{ name: "a", active: true }, { name: "b", active: false }] })).toBe("a");
  });

  it("accepts Jinja's aliases d and count, and default without arguments", () => {
    expect(render("{{ x | d('z') }}|{{ y | default }}|{{ xs | count }}", { y: "", xs: [1, 2] })).toBe("z||2");
  });

  it("lists the variables it reads from its context, sorted, and not those it binds or the globals", () => {
    const template = promptTemplate(
      "{% set x = 1 %}{{ x }}{% for d in docs %}{{ d }}{{ loop.index }}{% endfor %}{{ z | default('') }}{% macro m(a, b=q) %}{{ a }}{{ b }}{{ w }}{% endmacro %}{{ range(2) }}{{ true }}{{ query }}",
    );

    expect(template.variables).toEqual(["docs", "q", "query", "w", "z"]);
    expect(Object.isFrozen(template.variables)).toBe(true);
  });

  it("counts a name set in only one branch of an if, or only inside a loop, as read from the context", () => {
    expect(promptTemplate("{% if c %}{% set y = 2 %}{% endif %}{{ y }}").variables).toEqual(["c", "y"]);
    expect(promptTemplate("{% if c %}{% set y = 2 %}{% else %}{% set y = 3 %}{% endif %}{{ y }}").variables).toEqual(["c"]);
    expect(promptTemplate("{% for d in docs %}{% set last = d %}{% endfor %}{{ last }}").variables).toEqual(["docs", "last"]);
  });

  it("keeps its source and name, renders any number of times, and is frozen", () => {
    const template = promptTemplate("Hi {{ name }}.", { name: "userPrompt" });

    expect(template.source).toBe("Hi {{ name }}.");
    expect(template.name).toBe("userPrompt");
    expect([template.render({ name: "Ann" }), template.render({ name: "Bob" })]).toEqual(["Hi Ann.", "Hi Bob."]);
    expect(Object.isFrozen(template)).toBe(true);
  });

  it("names itself prompt in messages unless given a name", () => {
    expect(() => promptTemplate("{{ x }}").render({})).toThrow(
      "prompt template uses variable 'x', which this render was not given: pass a value for it, or mark it optional with {{ x | default('…') }} or {% if x is defined %}. Variables given: none.",
    );
  });

  it("rejects a source that is not a string, and values that are not an object", () => {
    expect(() => promptTemplate(42 as unknown as string, { name: "systemPrompt" })).toThrow(new PromptTemplateError("systemPrompt", "systemPrompt template must be a string, got number 42: pass the template's text."));
    expect(() => promptTemplate("x").render(["a"] as unknown as Record<string, unknown>)).toThrow("prompt template renders over an object of variables, got an array: pass { name: value, … }.");
  });
});

describe("isPromptTemplate", () => {
  it("is true for a compiled template and false for a look-alike", () => {
    const template = promptTemplate("Hi.");

    expect(isPromptTemplate(template)).toBe(true);
    expect(isPromptTemplate({ ...template })).toBe(false);
    expect(isPromptTemplate({ source: "Hi.", name: "prompt", variables: [], render: () => "Hi." })).toBe(false);
    expect(isPromptTemplate("Hi.")).toBe(false);
    expect(isPromptTemplate(null)).toBe(false);
  });
});
