import { ChatMessage, promptTemplate, PromptTemplateError } from "toolwright";

const systemPrompt = (source: string) => promptTemplate(source, { name: "systemPrompt" });

function failure(run: () => unknown): PromptTemplateError {
  try {
    run();
  } catch (error) {
    if (error instanceof PromptTemplateError) return error;
    throw error;
  }
  throw new Error("expected a PromptTemplateError");
}

const missing = (variable: string, given: string) =>
  `systemPrompt template uses variable '${variable}', which this render was not given: pass a value for it, or mark it optional with {{ ${variable} | default('…') }} or {% if ${variable} is defined %}. Variables given: ${given}.`;

describe("PromptTemplate.render with a missing variable", () => {
  it("fails naming the template, the variable and the variables given", () => {
    const error = failure(() => systemPrompt("You help {{ customer }} with {{ query }}.").render({ query: "refunds", messages: [] }));

    expect(error.message).toBe(missing("customer", "messages, query"));
    expect(error.template).toBe("systemPrompt");
    expect(error.variable).toBe("customer");
    expect(error.name).toBe("PromptTemplateError");
  });

  it("fails for a variable used inside a for loop or an if, even on a path this render does not take", () => {
    expect(() => systemPrompt("{% for doc in documents %}{{ doc }}{{ footer }}{% endfor %}").render({ documents: [] })).toThrow(missing("footer", "documents"));
    expect(() => systemPrompt("{% if show %}{{ customer }}{% endif %}").render({ show: false })).toThrow(missing("customer", "show"));
    expect(() => systemPrompt("{% if customer %}yes{% endif %}").render({})).toThrow(missing("customer", "none"));
  });

  it("counts a variable whose value is undefined as missing, and leaves it out of the variables given", () => {
    expect(() => systemPrompt("{{ customer }}").render({ customer: undefined, query: "q" })).toThrow(missing("customer", "query"));
  });

  it("names the first missing variable in alphabetical order", () => {
    expect(failure(() => systemPrompt("{{ zeta }}{{ alpha }}").render({})).variable).toBe("alpha");
  });

  it("lets a variable be missing where it is the operand of default or of an is defined test", () => {
    const template = systemPrompt("[{{ customer | default('n/a') }}] [{{ customer | d('x') }}] [{{ customer is defined }}] [{{ customer is undefined }}] [{{ customer.name | default('anonymous') }}]");

    expect(template.variables).toEqual(["customer"]);
    expect(template.render({})).toBe("[n/a] [x] [False] [True] [anonymous]");
    expect(template.render({ customer: { name: "Ann" } })).toBe("[{'name': 'Ann'}] [{'name': 'Ann'}] [True] [False] [Ann]");
  });

  it("lets a variable be missing where a test has proved it defined", () => {
    const template = systemPrompt(
      "{% if customer is defined %}{{ customer }}{% endif %}|{{ customer if customer is defined else 'none' }}|{% if customer is not defined %}n{% else %}{{ customer }}{% endif %}|{{ customer is defined and customer }}|{% if customer is undefined %}u{% elif customer %}{{ customer }}{% endif %}",
    );

    expect(template.render({})).toBe("|none|n|False|u");
    expect(template.render({ customer: "Ann" })).toBe("Ann|Ann|Ann|Ann|Ann");
  });

  it("still needs a variable that an or-test or a negated test does not prove defined", () => {
    expect(() => systemPrompt("{% if customer is defined or vip %}{{ customer }}{% endif %}").render({ vip: true })).toThrow(missing("customer", "vip"));
    expect(() => systemPrompt("{% if customer is not defined %}{{ customer }}{% endif %}").render({})).toThrow(missing("customer", "none"));
  });
});

describe("PromptTemplate.render reading a member a value lacks", () => {
  it("fails for a misspelt attribute, listing the value's keys", () => {
    expect(() => systemPrompt("Hello {{ customer.nmae }}").render({ customer: { name: "Ann", email: "ann@example.com" } })).toThrow(
      "systemPrompt template reads 'customer.nmae', but customer has no attribute 'nmae': fix the name, or mark it optional with customer.nmae | default('…'). customer has: name, email.",
    );
  });

  it("fails for a missing key, an index out of range, and an attribute of a string", () => {
    expect(() => systemPrompt("{{ q['foo'] }}").render({ q: {} })).toThrow(
      `systemPrompt template reads 'q["foo"]', but q has no key 'foo': fix the name, or mark it optional with q["foo"] | default('…'). q is empty.`,
    );
    expect(() => systemPrompt("{{ docs[5] }}").render({ docs: [1, 2, 3] })).toThrow(
      "systemPrompt template reads 'docs[5]', but docs has 3 items: check its length first, or mark it optional with docs[5] | default('…').",
    );
    expect(() => systemPrompt("{{ query.foo }}").render({ query: "refunds" })).toThrow(
      "systemPrompt template reads 'query.foo', but query is a string, which has no attribute 'foo': fix the name, or mark it optional with query.foo | default('…').",
    );
  });

  it("fails for .text of the last message when there are no messages", () => {
    expect(() => systemPrompt("{{ (messages|last).text }}").render({ messages: [] })).toThrow(
      "systemPrompt template reads '(messages|last).text', but (messages|last) is undefined: check it first with {% if (messages|last) is defined %}, or mark it optional with (messages|last).text | default('…').",
    );
  });

  it("lets a member be missing under default or an is defined test", () => {
    const template = systemPrompt("{{ customer.vip | default('no') }} {{ customer.address.city | default('?') }} {{ customer.vip is defined }} {{ (messages|last).text | default('none') }}");

    expect(template.render({ customer: { name: "Ann" }, messages: [] })).toBe("no ? False none");
    expect(template.render({ customer: { vip: "yes" }, messages: [ChatMessage.fromUser("hi")] })).toBe("yes ? True hi");
  });

  it("reads a key that exists with an undefined value, such as loop.previtem on the first item", () => {
    expect(systemPrompt("{% for x in xs %}[{{ loop.previtem }}]{% endfor %}").render({ xs: [1, 2] })).toBe("[][1]");
  });

  it("reads builtins of strings, lists and mappings", () => {
    expect(systemPrompt("{{ q.upper() }} {{ xs.length }} {{ d.get('a') }} {{ d.items()|list }}").render({ q: "hi", xs: [1, 2], d: { a: 1 } })).toBe("HI 2 1 [['a', 1]]");
  });
});
