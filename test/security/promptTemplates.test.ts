import fc from "fast-check";
import { ChatMessage, promptTemplate, PromptTemplateError } from "toolwright";
import { fuzzParameters, fuzzRuns, fuzzTimeout } from "./fuzzSettings";

// Templates from agent definitions are untrusted: built here from fragments that probe prototypes,
// unbounded work, huge strings, deep nesting, recursion and broken syntax, over values holding
// prototype-named keys, class instances, functions and messages.
const expressions = [
  "x",
  "x.constructor",
  "x.__proto__",
  "x['constructor']['constructor']('return process')()",
  "x.toString",
  "y.constructor.name",
  "items",
  "items | length",
  "items | first",
  "(items | last).text",
  "(messages | last).text",
  "messages[0].content",
  "range(5)",
  "range(100000000)",
  "namespace",
  "namespace(x)",
  "'a' * 1000000",
  "'ab' * 3",
  "x | tojson(indent=100000)",
  "x | string",
  "x | default('d')",
  "x is defined",
  "nothing",
  "nothing | default('n')",
  "[x, x, x]",
  "{'__proto__': x, 'constructor': y}",
  "x ~ y",
  "x + y",
  "x == items",
  "items | join('j' * 1000)",
  "'abc'.replace('', 'z' * 100000)",
  "x | indent(1000000)",
  "loop.index",
  "caller()",
  "kwargs",
  "none.x",
  "1 / 0",
  "items[1000]",
  "x[0:100000000]",
  "items | sort",
  "items | sort(attribute='a.b')",
  "items | map(attribute='__proto__') | list",
  "items | selectattr('constructor') | list",
  "x | dictsort",
  "items | unique | list",
  "x.items()",
  "x.get('__proto__')",
];
const statements = [
  "{{ E }}",
  "{% set z = E %}{{ z }}",
  "{% if E %}yes{% else %}no{% endif %}",
  "{% for i in E %}{{ i }},{% endfor %}",
  "{% for i in range(1000) %}{% for j in range(1000) %}{{ E }}{% endfor %}{% endfor %}",
  "{% macro m(a) %}{{ m(a) }}{% endmacro %}{{ m(E) }}",
  "{% set ns = namespace() %}{% set ns.__proto__ = E %}{% set ns.self = ns %}{{ ns }}",
  "{% set ns = namespace(l=[E]) %}{% for i in range(60) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}",
  "{% set l = [E] %}{% set l = [l, l, l, l, l, l, l, l] %}{% set l = [l, l, l, l, l, l, l, l] %}{% set l = [l, l, l, l, l, l, l, l] %}{{ l }}",
  "{% filter upper %}{{ E }}{% endfilter %}",
  "{# E #}text {\n",
];
const broken = ["{{", "}}", "{% endfor %}", "{% break %}", "{% if E %}"];
const fragment = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...statements), fc.constantFrom(...expressions)).map(([statement, expression]) => statement.replaceAll("E", expression)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...broken), fc.constantFrom(...expressions)).map(([statement, expression]) => statement.replaceAll("E", expression)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const hostileTemplate = fc.array(fragment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(""));

class Account {
  readonly owner = "ann";
  readonly balance = 10;
  close() {
    return "closed";
  }
}

const key = fc.constantFrom("x", "y", "items", "messages", "__proto__", "constructor", "toString", "prototype", "z");
const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant("x".repeat(200_000)),
  fc.constant(() => "called"),
  fc.constant(ChatMessage.fromUser("hi")),
  fc.constant(new Date(0)),
  fc.constant(new Account()),
  fc.constant(new Map([["__proto__", 1]])),
);
const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(key, tie("value"), { maxKeys: 4 })),
}));
// The names the fragments read are usually there, so that most templates get to run.
const hostileValues = fc
  .tuple(fc.record({ x: hostileValue, y: hostileValue, items: fc.array(hostileValue, { maxLength: 4 }), messages: fc.constant([ChatMessage.fromUser("hi")]) }, { requiredKeys: ["x", "y", "items"] }), fc.dictionary(key, hostileValue, { maxKeys: 4 }))
  .map(([names, extra]) => ({ ...names, ...extra }));

// Every own property of the built-in prototypes, and what it holds, before any template ran.
const prototypes = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Map.prototype];
const snapshot = () => prototypes.map((proto) => Object.getOwnPropertyNames(proto).map((name) => [name, Object.getOwnPropertyDescriptor(proto, name)!.value]));

// Arrays and plain objects copied all the way down (own `__proto__` keys too); anything else shared.
function deepCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy = {};
  for (const [name, item] of Object.entries(value)) Object.defineProperty(copy, name, { value: deepCopy(item), enumerable: true, writable: true, configurable: true });
  return copy;
}

describe("hostile prompt templates", () => {
  const runs = fuzzRuns(150);
  it(
    `render a string of at most 1,000,000 characters or throw a PromptTemplateError, and leave the built-in prototypes and the values alone (${runs} cases)`,
    () => {
      const before = snapshot();
      fc.assert(
        fc.property(hostileTemplate, hostileValues, (source, values) => {
          const copy = deepCopy(values);
          let output: string | undefined;
          try {
            output = promptTemplate(source, { name: "userPrompt" }).render(values);
          } catch (error) {
            expect(error).toBeInstanceOf(PromptTemplateError);
            expect((error as PromptTemplateError).message.startsWith("userPrompt template ")).toBe(true);
          }
          if (output !== undefined) expect(output.length).toBeLessThanOrEqual(1_000_000);
          expect(snapshot()).toEqual(before);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(values).toEqual(copy);
        }),
        fuzzParameters(runs),
      );
    },
    fuzzTimeout(runs, 200),
  );
});
