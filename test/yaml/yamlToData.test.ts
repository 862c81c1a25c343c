import { readYamlDefinition } from "../../src/yaml/yamlDocument";
import { readError } from "./readError";

const tagRule = "a definition is plain data, so only the core tags (!!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are read: remove the tag.";
const keyRule = "a definition is JSON data, whose keys are strings";
const read = (text: string) => readYamlDefinition(text, "agent.yaml").data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- read freely below

describe("yamlToData tags", () => {
  it.each([
    ["!!js/function", "name: x\nrun: !!js/function 'function () { return 1 }'\n", "agent.yaml:2:20: run: has the tag !!js/function"],
    ["!!binary", "data: !!binary aGk=\n", "agent.yaml:1:16: data: has the tag !!binary"],
    ["!!set", "tags: !!set { a, b }\n", "agent.yaml:1:13: tags: has the tag !!set"],
    ["!!omap", "steps: !!omap\n  - a: 1\n", "agent.yaml:2:3: steps: has the tag !!omap"],
    ["!!timestamp", "when: !!timestamp 2001-12-14\n", "agent.yaml:1:19: when: has the tag !!timestamp"],
    ["!!python/object", "name: !!python/object:os.system x\n", "agent.yaml:1:33: name: has the tag !!python/object:os.system"],
    ["a local tag", "tools:\n  - !custom x\n", "agent.yaml:2:13: tools[0]: has the tag !custom"],
    ["a verbatim tag", "name: !<tag:example.com,2000:x> y\n", "agent.yaml:1:33: name: has the tag !<tag:example.com,2000:x>"],
    ["a %TAG shorthand", "%TAG !e! tag:example.com,2000:\n---\nname: !e!x y\n", "agent.yaml:3:12: name: has the tag !<tag:example.com,2000:x>"],
    ["the non-specific tag", "name: ! y\n", "agent.yaml:1:9: name: has the tag !"],
    ["a tag on an empty value", "name: !foo\n", "agent.yaml:1:11: name: has the tag !foo"],
    ["a tag on a key", "!foo name: x\n", "agent.yaml:1:6: (definition): has the tag !foo"],
  ])("refuses %s, naming it", (_what, text, start) => {
    expect(readError(text).message).toBe(`${start}; ${tagRule}`);
  });

  it("reads the core tags", () => {
    expect(read("a: !!str 1\nb: !!int 7\nc: !!float 1.5\nd: !!bool true\ne: !!null ~\nf: !!map { x: 1 }\ng: !!seq [1]\n")).toEqual({ a: "1", b: 7, c: 1.5, d: true, e: null, f: { x: 1 }, g: [1] });
  });

  it.each([
    ["!!int on a word", "count: !!int abc\n", "agent.yaml:1:14: count: has the tag !!int, but 'abc' is not an integer; remove the tag or change the value."],
    ["!!int on a fraction", "count: !!int 1.5\n", "agent.yaml:1:14: count: has the tag !!int, but '1.5' is not an integer; remove the tag or change the value."],
    ["!!bool on yes", "flag: !!bool yes\n", "agent.yaml:1:14: flag: has the tag !!bool, but 'yes' is not true or false; remove the tag or change the value."],
    ["!!map on a sequence", "tools: !!map [a]\n", "agent.yaml:1:14: tools: has the tag !!map, but a sequence is not a mapping; remove the tag or change the value."],
  ])("refuses a core tag on a value it does not fit: %s", (_what, text, message) => {
    expect(readError(text).message).toBe(message);
  });
});

describe("yamlToData keys", () => {
  it.each([
    ["at the top", "version: 1\nname: a\nname: b\n", "agent.yaml:3:1: name: is given twice in one mapping (also at line 2, column 1); keep one of them."],
    ["in a sequence item", "tools:\n  - class: A\n    class: B\n", "agent.yaml:3:5: tools[0].class: is given twice in one mapping (also at line 2, column 5); keep one of them."],
    ["in a flow mapping", "options: { a: 1, a: 2 }\n", "agent.yaml:1:18: options.a: is given twice in one mapping (also at line 1, column 12); keep one of them."],
    ["once quoted", "name: a\n'name': b\n", "agent.yaml:2:1: name: is given twice in one mapping (also at line 1, column 1); keep one of them."],
    ["through an alias", "&k name: a\n*k : b\n", "agent.yaml:2:1: name: is given twice in one mapping (also at line 1, column 4); keep one of them."],
    ["named __proto__", "__proto__: 1\n__proto__: 2\n", "agent.yaml:2:1: __proto__: is given twice in one mapping (also at line 1, column 1); keep one of them."],
  ])("refuses a key given twice %s, at the second", (_what, text, message) => {
    expect(readError(text).message).toBe(message);
  });

  it.each([
    ["a number", "1: a\n", `agent.yaml:1:1: (definition): has the key 1, which is a number; ${keyRule}, so quote it: "1".`],
    ["a fraction in a sequence item", "tools:\n  - 2.5: x\n", `agent.yaml:2:5: tools[0]: has the key 2.5, which is a number; ${keyRule}, so quote it: "2.5".`],
    ["a boolean", "stateSchema:\n  true: x\n", `agent.yaml:2:3: stateSchema: has the key true, which is a boolean; ${keyRule}, so quote it: "true".`],
    ["~", "~: x\n", `agent.yaml:1:1: (definition): has the key ~, which is null; ${keyRule}, so quote it: "~".`],
    ["null", "null: x\n", `agent.yaml:1:1: (definition): has the key null, which is null; ${keyRule}, so quote it: "null".`],
    ["an empty key", "name: a\n: x\n", `agent.yaml:2:1: (definition): has an empty key; ${keyRule}, so write a key before the ':'.`],
    ["a sequence", "? [a, b]\n: 1\n", `agent.yaml:1:3: (definition): has a sequence as a key ([a, b]); ${keyRule}, so use a string key.`],
    ["a mapping", "? { a: 1 }\n: 1\n", `agent.yaml:1:3: (definition): has a mapping as a key ({ a: 1 }); ${keyRule}, so use a string key.`],
    ["an alias of a number", "a: &n 1\nb:\n  *n : c\n", `agent.yaml:3:3: b: has the key 1, which is a number; ${keyRule}, so quote it: "1".`],
  ])("refuses a key that is %s, at the key", (_what, text, message) => {
    expect(readError(text).message).toBe(message);
  });

  it("reads quoted, !!str-tagged and YAML 1.1-looking keys as strings", () => {
    expect(read("'1': a\n!!str 2: b\n\"true\": c\nyes: d\n")).toEqual({ "1": "a", "2": "b", true: "c", yes: "d" });
  });

  it("refuses a << merge key, naming the fix", () => {
    expect(readError("base: &base { model: x }\nchatGenerator:\n  <<: *base\n  type: openai\n").message).toBe(
      `agent.yaml:3:3: chatGenerator["<<"]: is a merge key ('<<'), which a definition does not read (it is JSON data); write the merged keys out, or quote '<<' for a key named so.`,
    );
  });

  it("reads a quoted '<<' as a plain key", () => {
    expect(read("'<<': x\n")).toEqual({ "<<": "x" });
  });
});

describe("yamlToData __proto__ keys", () => {
  const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

  afterEach(() => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps a __proto__ key as own data, at any depth, leaving every prototype alone", () => {
    const data = read("__proto__: { polluted: true }\ntools:\n  - __proto__: { polluted: true }\n    class: A\noptions: { __proto__: [1] }\n");

    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(data, "__proto__")).toEqual({ value: { polluted: true }, writable: true, enumerable: true, configurable: true });
    expect(data.polluted).toBeUndefined();
    expect(Object.getPrototypeOf(data.tools[0])).toBe(Object.prototype);
    expect(Object.keys(data.tools[0])).toEqual(["__proto__", "class"]);
    expect(Object.getPrototypeOf(data.options)).toBe(Object.prototype);
    expect(JSON.stringify(data)).toBe('{"__proto__":{"polluted":true},"tools":[{"__proto__":{"polluted":true},"class":"A"}],"options":{"__proto__":[1]}}');
  });

  it("keeps __proto__ own data in an alias's copy", () => {
    const data = read("a: &p { __proto__: { polluted: true } }\nb: *p\n");

    expect(Object.getPrototypeOf(data.b)).toBe(Object.prototype);
    expect(Object.hasOwn(data.b, "__proto__")).toBe(true);
  });

  it("reads constructor and prototype keys as plain data", () => {
    expect(read("constructor: { prototype: { polluted: true } }\n")).toEqual({ constructor: { prototype: { polluted: true } } });
  });
});

describe("yamlToData numbers", () => {
  it.each([".inf", "-.inf", ".nan", ".NaN", "1e400"])("refuses %s, which JSON cannot hold", (written) => {
    expect(readError(`maxAgentSteps: ${written}\n`).message).toBe(
      `agent.yaml:1:16: maxAgentSteps: is ${written}, which is not a finite number; a definition is JSON data, so write a finite number, or quote it ('${written}') for a string.`,
    );
  });
});

describe("yamlToData aliases", () => {
  it("expands each alias into a copy of its own", () => {
    const data = read("shared: &s { description: Finds things. }\ntools:\n  - tool: a\n    settings: *s\n  - tool: b\n    settings: *s\nmodel: &m gpt\nother: *m\n");

    expect(data.tools).toEqual([
      { tool: "a", settings: { description: "Finds things." } },
      { tool: "b", settings: { description: "Finds things." } },
    ]);
    expect(data.other).toBe("gpt");
    expect(data.tools[0].settings).not.toBe(data.tools[1].settings);
    expect(data.tools[0].settings).not.toBe(data.shared);
  });

  it("repeats the last anchor of a name before the alias", () => {
    expect(read("a: &x 1\nb: &x 2\nc: *x\n")).toEqual({ a: 1, b: 2, c: 2 });
  });

  it.each([
    ["no anchor", "chatGenerator: *base\n", "agent.yaml:1:16: chatGenerator: is the alias *base, but no anchor &base comes before it; put the anchor on an earlier value, or write the value out."],
    ["an anchor after it", "a: *b\nb: &b 1\n", "agent.yaml:1:4: a: is the alias *b, but no anchor &b comes before it; put the anchor on an earlier value, or write the value out."],
  ])("refuses an alias with %s", (_what, text, message) => {
    expect(readError(text).message).toBe(message);
  });

  it.each([
    ["an item of it", "tools: &t\n  - class: A\n  - *t\n", "agent.yaml:3:5: tools[1]: is the alias *t inside the value &t names; an alias cannot repeat a value that contains it, so write this value out."],
    ["deep inside it", "a: &x\n  b:\n    c: [*x]\n", "agent.yaml:3:9: a.b.c[0]: is the alias *x inside the value &x names; an alias cannot repeat a value that contains it, so write this value out."],
  ])("refuses an alias that is %s", (_what, text, message) => {
    expect(readError(text).message).toBe(message);
  });

  it("refuses a billion laughs quickly, at the alias that crosses the limit", () => {
    const levels = ["lol0: &l0 [" + Array(10).fill("lol").join(", ") + "]"];
    for (let level = 1; level <= 9; level += 1) levels.push(`lol${level}: &l${level} [${Array(10).fill(`*l${level - 1}`).join(", ")}]`);
    const started = Date.now();

    const error = readError(`${levels.join("\n")}\n`);

    expect(error.message).toBe(
      "agent.yaml:4:47: lol3[7]: expands aliases to more than 10,000 values, the limit for a definition file (it guards against files that expand into huge data); repeat fewer or smaller values with aliases.",
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("expands aliases to exactly 10,000 values, and refuses one more", () => {
    const thousand = `a: &a [${Array(1000).fill("x").join(", ")}]\ns: &s x\n`;
    const aliases = (extra: number) => [...Array(9).fill("*a"), ...Array(991 + extra).fill("*s")].map((alias) => `  - ${alias}\n`).join("");

    const data = read(`${thousand}b:\n${aliases(0)}`);
    expect(data.b).toHaveLength(1000);
    expect(data.b[8]).toHaveLength(1000);

    expect(readError(`${thousand}b:\n${aliases(1)}`).message).toBe(
      "agent.yaml:1004:5: b[1000]: expands aliases to more than 10,000 values, the limit for a definition file (it guards against files that expand into huge data); repeat fewer or smaller values with aliases.",
    );
  });
});

describe("yamlToData nesting", () => {
  const depthReason = "nests mappings and sequences more than 100 levels deep, the limit for a definition file; flatten it.";

  it("reads 100 levels", () => {
    expect(JSON.stringify(read(`a: ${"[".repeat(99)}${"]".repeat(99)}\n`))).toBe(`{"a":${"[".repeat(99)}${"]".repeat(99)}}`);
  });

  it("refuses 101 levels of flow sequences, at the 101st, before parsing", () => {
    expect(readError(`a: ${"[".repeat(100)}${"]".repeat(100)}\n`).message).toBe(`agent.yaml:1:103: (definition): ${depthReason}`);
  });

  it("refuses 101 levels of block mappings, at the 101st", () => {
    const text = Array.from({ length: 101 }, (_, i) => `${" ".repeat(i)}k:`).join("\n") + " 1\n";

    expect(readError(text).message).toBe(`agent.yaml:101:101: ${"k.".repeat(99)}k: ${depthReason}`);
  });

  it("refuses nesting that an alias adds, at the alias", () => {
    const text = `a: &a ${"[".repeat(60)}${"]".repeat(60)}\nb: ${"[".repeat(40)}*a${"]".repeat(40)}\n`;

    expect(readError(text).message).toBe(`agent.yaml:2:44: b${"[0]".repeat(40)}: ${depthReason}`);
  });

  it.each([
    ["flow sequences", `a: ${"[".repeat(5000)}${"]".repeat(5000)}\n`],
    ["block sequences", `a:\n${"- ".repeat(20_000)}x\n`],
  ])("refuses 5,000 levels of %s without overflowing the stack", (_what, text) => {
    const error = readError(text);

    expect(error.reason).toBe(depthReason);
    expect(error.path).toEqual([]);
    expect(error.message).toMatch(new RegExp(`^agent\\.yaml:[12]:\\d+: \\(definition\\): ${depthReason.replace(/[.()]/g, "\\$&")}$`));
  });
});
