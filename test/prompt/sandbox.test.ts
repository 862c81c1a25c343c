import { promptTemplate } from "toolwright";

const render = (source: string, values: Record<string, unknown> = {}) => promptTemplate(source, { name: "userPrompt" }).render(values);

describe("promptTemplate as a sandbox", () => {
  afterEach(() => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  });
  const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

  it.each([
    ["{{ x.constructor }}", { x: {} }, "userPrompt template reads 'x.constructor', but x has no attribute 'constructor': fix the name, or mark it optional with x.constructor | default('…'). x is empty."],
    ["{{ x.__proto__ }}", { x: { a: 1 } }, "userPrompt template reads 'x.__proto__', but x has no attribute '__proto__': fix the name, or mark it optional with x.__proto__ | default('…'). x has: a."],
    [
      "{{ x['constructor']['constructor']('return process')() }}",
      { x: [] },
      `userPrompt template reads 'x["constructor"]', but x is a list, which has no item 'constructor': fix the name, or mark it optional with x["constructor"] | default('…').`,
    ],
    ["{{ 'a'.constructor }}", {}, `userPrompt template reads '"a".constructor', but "a" is a string, which has no attribute 'constructor': fix the name, or mark it optional with "a".constructor | default('…').`],
    ["{{ range.constructor }}", {}, "userPrompt template reads 'range.constructor', but range is a function, which has no attribute 'constructor': fix the name, or mark it optional with range.constructor | default('…')."],
    ["{{ namespace().__proto__ }}", {}, "userPrompt template reads 'namespace(…).__proto__', but namespace(…) has no attribute '__proto__': fix the name, or mark it optional with namespace(…).__proto__ | default('…'). namespace(…) is empty."],
  ])("reaches no JavaScript object through %s", (source, values, message) => {
    expect(() => render(source, values)).toThrow(message);
  });

  it("gives prototype-looking names no meaning beyond their value", () => {
    expect(render("{{ x.__proto__ | default('none') }} {{ x.constructor is defined }} {{ x.toString | default('-') }}", { x: {} })).toBe("none False -");
  });

  it("keeps a __proto__ key of the values as data", () => {
    expect(render("{{ d['__proto__'] }} {{ d['__proto__'].polluted }}", { d: JSON.parse('{"__proto__": {"polluted": 1}}') })).toBe("{'polluted': 1} 1");
  });

  it("lets the template set __proto__ and constructor on its own namespace only", () => {
    expect(render("{% set ns = namespace() %}{% set ns.__proto__ = 1 %}{% set ns.constructor = 2 %}{{ ns }} {{ {'__proto__': 3} }}")).toBe("<Namespace {'__proto__': 1, 'constructor': 2}> {'__proto__': 3}");
  });

  it("refuses a function given as a variable, and calls none", () => {
    const call = jest.fn(() => "called");

    expect(() => render("{{ lookup('x') }}", { lookup: call })).toThrow("userPrompt template uses variable 'lookup', which holds a function: a template cannot call code; pass the data it needs instead.");
    expect(call).not.toHaveBeenCalled();
  });

  it("drops functions inside a value, as JSON does, so a template cannot reach them", () => {
    const call = jest.fn(() => "called");
    const customer = { name: "Ann", greet: call, list: [call] };

    expect(render("{{ customer }}", { customer })).toBe("{'name': 'Ann', 'list': [None]}");
    expect(() => render("{{ customer.greet() }}", { customer })).toThrow(
      "userPrompt template reads 'customer.greet', but customer has no attribute 'greet': fix the name, or mark it optional with customer.greet | default('…'). customer has: name, list.",
    );
    expect(call).not.toHaveBeenCalled();
  });

  it("prints the template's own functions and macros without their JavaScript source", () => {
    expect(render("{% macro m() %}x{% endmacro %}{{ m }} {{ range }} {{ namespace }} {{ 'a'.upper }} {{ 'a' ~ m }} {{ [m]|join }} {{ 'b' + m }}")).toBe(
      "<function> <function> <function> <function> a<function> <function> b<function>",
    );
  });

  it("copies the values it is given, so a template cannot change the caller's data", () => {
    const values = { d: { a: 1 }, xs: [1] };

    expect(render("{% set ns = namespace(d) %}{% set ns.a = 2 %}{% set ns.b = xs + [2] %}{{ ns.a }}{{ ns.b }}", values)).toBe("2[1, 2]");
    expect(values).toEqual({ d: { a: 1 }, xs: [1] });
  });
});
