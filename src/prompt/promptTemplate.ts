import { PromptTemplateError } from "../errors";
import { describeKind } from "../util/describeValue";
import { compileTemplate } from "./compileTemplate";
import { renderTemplate } from "./renderTemplate";

export { escapeTemplateText } from "./escapeTemplateText";

/** A Jinja template compiled once; render it over a context of variables. */
export interface PromptTemplate {
  readonly source: string;
  /** The template's name for messages: "systemPrompt", "userPrompt", or what the caller gave. */
  readonly name: string;
  /** The variables the template reads from its context (its free variables), sorted. */
  readonly variables: readonly string[];
  /** Renders; throws PromptTemplateError for a missing variable or a failure while rendering. */
  render(values: Readonly<Record<string, unknown>>): string;
}

/** Options for `promptTemplate`. */
export interface PromptTemplateOptions {
  /** The template's name in messages (`systemPrompt`, `userPrompt`); `prompt` when not given. */
  name?: string;
}

const templates = new WeakSet<object>();

/**
 * Compiles a Jinja template, as Haystack's prompt builders use them (Jinja's defaults: no
 * `trim_blocks`, no `lstrip_blocks`, no autoescape, one trailing newline dropped), on
 * `@huggingface/jinja`'s sandboxed interpreter (loaded on the first call). The template may be
 * untrusted: it reaches no JavaScript (no prototypes, no functions from the variables), and each
 * render is bounded (`templateLimits`: source length, output length, a budget of steps, nesting).
 * Throws `PromptTemplateError` for a syntax error (with its line), an unknown filter or test, or a
 * source over the length limit.
 *
 * Rendering is strict where Jinja is lenient:
 * - A variable the template reads (see `variables`) that the render is not given (no own property,
 *   or `undefined`) is an error, except where it is optional: the operand of `default`
 *   (`{{ x | default('n/a') }}`) or of an `is defined` / `is undefined` test, or used inside an
 *   `if` or conditional expression whose test proved it defined (`{% if x is defined %}{{ x }}`,
 *   `x is defined and x`).
 * - Reading an attribute, key or item that a value lacks (`{{ customer.nmae }}`, `{{ docs[5] }}`,
 *   `.text` of an undefined `messages | last`) is an error, except under `default` or `is
 *   defined` as above. A key present with an undefined value (`loop.previtem`) is not missing.
 *
 * Known differences from Jinja, from the interpreter: lists and mappings print as JSON
 * (`["a", 1]`, not `['a', 1]`); `~` and `join` print booleans as `true`; no `{% raw %}`,
 * `{% include %}`, `{% extends %}` or blocks; the filters and tests are those `templateFilters` and
 * `templateTests` list. `True`/`False`/`None` and floats print as Jinja prints them.
 *
 * @example
 * const prompt = promptTemplate("Answer from these documents:\n{% for doc in documents %}- {{ doc.content }}\n{% endfor %}Question: {{ query }}", { name: "userPrompt" });
 * prompt.variables; // ["documents", "query"]
 * prompt.render({ documents: [{ content: "Paris is in France." }], query: "Where is Paris?" });
 */
export function promptTemplate(source: string, options: PromptTemplateOptions = {}): PromptTemplate {
  const name = options.name ?? "prompt";
  if (typeof source !== "string") throw new PromptTemplateError(name, `${name} template must be a string, got ${describeKind(source)}: pass the template's text.`);
  const compiled = compileTemplate(source, name);
  const template: PromptTemplate = Object.freeze({
    source,
    name,
    variables: compiled.plan.variables,
    render: (values: Readonly<Record<string, unknown>>) => renderTemplate(compiled, values),
  });
  templates.add(template);
  return template;
}

/** True for a template made by `promptTemplate` (not for look-alike objects). */
export function isPromptTemplate(value: unknown): value is PromptTemplate {
  return typeof value === "object" && value !== null && templates.has(value);
}
