import { asMapping, type ImportContext, shortName, type YamlPath } from "./importContext";

// Haystack's built-in merge handlers, by the dotted path serialize_callable writes.
const builtIn: Readonly<Record<string, string>> = Object.freeze({
  "haystack.components.agents.state.state_utils.merge_lists": "mergeLists",
  "haystack.components.agents.state.state_utils.replace_values": "replaceValues",
});

/** A handler a conversion names: built in (`mergeLists`), or a stub the tools module exports. */
export interface HandlerName {
  readonly name: string;
  readonly builtIn: boolean;
}

/**
 * The handlers (Python dotted paths) a conversion meets, each given a TypeScript name: Haystack's
 * `merge_lists` and `replace_values` are toolwright's `mergeLists` and `replaceValues`; any other is
 * a stub function of the tools module, listed as hand work once.
 */
export class HandlerNames {
  /** Stubs to write: TypeScript name → the Python function and what calls it (`merge` or `string`). */
  readonly stubs = new Map<string, { readonly python: string; readonly use: "merge" | "string" }>();
  readonly #byPython = new Map<string, string>();

  constructor(private readonly context: ImportContext) {}

  /** The name for a handler path found at `path`; `use` says how toolwright calls it. */
  name(python: string, path: YamlPath, use: "merge" | "string"): HandlerName {
    if (Object.hasOwn(builtIn, python)) return { name: builtIn[python]!, builtIn: true };
    const known = this.#byPython.get(python);
    if (known !== undefined) return { name: known, builtIn: false };
    let name = camelCase(shortName(python)) || "handler";
    for (let n = 2; this.stubs.has(name) || name === "handlers" || builtInName(name); n++) name = `${camelCase(shortName(python))}${n}`;
    this.#byPython.set(python, name);
    this.stubs.set(name, { python, use });
    const what = use === "merge" ? "(current, incoming) => merged" : "(result) => string";
    this.context.todo(path, "handler", `Port the Python handler ${python} to ${name} ${what} in the tools module.`);
    return { name, builtIn: false };
  }
}

/** `keep_last` → `keepLast`; a name that is not an identifier after that gets a leading `_`. */
export function camelCase(text: string): string {
  const camel = text.replace(/[^A-Za-z0-9_$]+/g, "_").replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/_+$/, "");
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

function builtInName(name: string): boolean {
  return name === "mergeLists" || name === "replaceValues";
}

/** `{ handler: "a.b.c" }` → its handler string, if any. */
export function handlerOf(config: unknown): string | undefined {
  const handler = asMapping(config)?.handler;
  return typeof handler === "string" ? handler : undefined;
}
