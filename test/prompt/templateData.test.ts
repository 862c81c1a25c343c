import { ChatMessage, promptTemplate } from "toolwright";

const render = (source: string, values: Record<string, unknown>) => promptTemplate(source, { name: "userPrompt" }).render(values);

class Ticket {
  constructor(
    readonly id: number,
    readonly title: string,
  ) {}
}

class Money {
  constructor(private readonly cents: number) {}
  toJSON() {
    return { amount: this.cents / 100, currency: "EUR" };
  }
}

describe("the values a template renders over", () => {
  it("gives a ChatMessage as its JSON dict plus text and role", () => {
    expect(render("{{ m }}", { m: ChatMessage.fromUser("hi", { name: "ann" }) })).toBe("{'role': 'user', 'meta': {}, 'name': 'ann', 'content': [{'text': 'hi'}], 'text': 'hi'}");
  });

  it("gives Dates as ISO strings, Maps as mappings, Sets as lists and bigints as numbers", () => {
    const values = { d: new Date("2024-01-02T03:04:05Z"), bad: new Date(Number.NaN), m: new Map([["a", 1]]), s: new Set(["x", "y"]), n: 12n, huge: 2n ** 64n };

    expect(render("{{ d }} {{ bad }} {{ m.a }} {{ s }} {{ n + 1 }} {{ huge }}", values)).toBe("2024-01-02T03:04:05.000Z None 1 ['x', 'y'] 13 18446744073709551616");
  });

  it("gives class instances as their JSON form", () => {
    expect(render("{{ t.title }} #{{ t.id }}; {{ price.amount }} {{ price.currency }}", { t: new Ticket(7, "Refund"), price: new Money(1250) })).toBe("Refund #7; 12.5 EUR");
  });

  it("drops undefined values, functions and symbols inside values, as JSON does", () => {
    expect(render("{{ v }}", { v: { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1, 2] } })).toBe("{'d': [None, None, 2]}");
  });

  it("converts only the variables the template reads", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;

    expect(render("{{ x }}", { x: 1, unused: circular, alsoUnused: () => 1 })).toBe("1");
  });

  it("names the variable and the path of a value with no template form", () => {
    const circular: Record<string, unknown> = { a: {} };
    (circular.a as Record<string, unknown>).back = circular;

    expect(() => render("{{ c }}", { c: circular })).toThrow("userPrompt template uses variable 'c', whose value has no template form: c.a.back holds a circular reference; pass plain data.");
    expect(() => render("{{ m }}", { m: new Map([[1, "one"]]) })).toThrow("userPrompt template uses variable 'm', whose value has no template form: m is a Map with a key that is not a string; use string keys.");
    expect(() => render("{{ m.text }}", { m: ChatMessage.fromUser("hi", { meta: { tokens: 1n } }) })).toThrow(
      "userPrompt template uses variable 'm', whose value has no template form: Do not know how to serialize a BigInt; pass plain data (strings, numbers, booleans, null, arrays, objects, Dates, ChatMessages).",
    );
    expect(() => render("{{ s }}", { s: Symbol("s") })).toThrow("userPrompt template uses variable 's', which holds a symbol: a template cannot call code; pass the data it needs instead.");
    expect(() => render("{{ t }}", { t: { inner: new Ticket(1, "x"), ticket: Object.assign(new Ticket(2, "y"), { tags: new Set(["a"]) }) } })).toThrow(
      "userPrompt template uses variable 't', whose value has no template form: t.ticket.tags holds a Set, which has no JSON form; pass plain data (strings, numbers, booleans, null, arrays, objects, Dates, ChatMessages).",
    );
  });
});
