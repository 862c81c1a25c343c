/**
 * The names a template can use without a variable: the globals a render defines. `namespace` is
 * `@huggingface/jinja`'s own; the rest are set by `renderTemplate`.
 */
export const templateGlobals: ReadonlySet<string> = new Set(["true", "false", "none", "True", "False", "None", "range", "namespace"]);

/**
 * The filters `@huggingface/jinja` 0.5.11 has (on some value type), plus Jinja's aliases that the
 * analysis renames (`d` → `default`, `count` → `length`). A template naming another filter fails
 * to compile, so a typo is caught when the agent definition loads rather than on some run.
 */
export const templateFilters: readonly string[] = [
  "abs",
  "bool",
  "capitalize",
  "count",
  "d",
  "default",
  "dictsort",
  "first",
  "float",
  "get",
  "indent",
  "int",
  "items",
  "join",
  "keys",
  "last",
  "length",
  "list",
  "lower",
  "map",
  "rejectattr",
  "replace",
  "reverse",
  "safe",
  "selectattr",
  "sort",
  "string",
  "title",
  "tojson",
  "trim",
  "unique",
  "upper",
  "values",
];

/** Jinja's filter aliases, renamed to the name `@huggingface/jinja` knows. */
export const filterAliases: ReadonlyMap<string, string> = new Map([
  ["d", "default"],
  ["count", "length"],
]);

/** The tests (`x is defined`) `@huggingface/jinja` 0.5.11 has. */
export const templateTests: readonly string[] = [
  "boolean",
  "callable",
  "defined",
  "eq",
  "equalto",
  "even",
  "false",
  "integer",
  "iterable",
  "lower",
  "mapping",
  "none",
  "number",
  "odd",
  "sequence",
  "string",
  "true",
  "undefined",
  "upper",
];
