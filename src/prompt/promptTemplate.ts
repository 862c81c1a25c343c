import { PromptTemplateError } from "../errors";
import { describeKind } from "../util/describeValue";
import { compileTemplate } from "./compileTemplate";
import { isPromptTemplate, markPromptTemplate, type PromptTemplate } from "./isPromptTemplate";
import { renderMessages, renderTemplate } from "./renderTemplate";

export { escapeTemplateText } from "./escapeTemplateText";
export { isPromptTemplate, type PromptTemplate };

/** Options for `promptTemplate`. */
export interface PromptTemplateOptions {
  /** The template's name in messages (`systemPrompt`, `userPrompt`); `prompt` when not given. */
  name?: string;
}

/**
 * Compiles a Jinja template, as Haystack's prompt builders use them (Jinja's defaults: no
 * `trim_blocks`, no `lstrip_blocks`, no autoescape, `\r\n` read as `\n`, one trailing newline
 * dropped), on `@huggingface/jinja`'s interpreter (loaded on the first call). Values print as Jinja
 * prints them (`True`, `None`, `['a', 1]`) and `tojson` is Jinja's (sorted keys, ASCII, HTML-safe).
 * Throws `PromptTemplateError` for a syntax error (with its line), an unknown filter or test, or a
 * source over the length limit.
 *
 * The template may be untrusted (an agent definition from a request): it reaches no JavaScript
 * (values are copied to plain data, functions refused, attribute lookups never reach prototypes)
 * and each render is bounded (a source of at most 100,000 characters, an output and any string made
 * of at most 1,000,000, a budget of 1,000,000 steps, nesting: `templateLimits`), failing with
 * a `PromptTemplateError` that names the limit.
 *
 * Rendering is strict where Jinja is lenient:
 * - A variable the template reads (see `variables`) that the render is not given (no own property,
 *   or `undefined`) is an error, even on a branch this render does not take, except where it is
 *   optional: the operand of `default` (`{{ x | default('n/a') }}`), or of an `is defined` /
 *   `is undefined` test, or used where an enclosing `if` or conditional expression proved it
 *   defined (`{% if x is defined %}{{ x }}{% endif %}`, `x is defined and x`). `{% if x %}` alone
 *   does not make `x` optional.
 * - Reading an attribute, key or item that a value lacks (`{{ customer.nmae }}`, `{{ docs[5] }}`,
 *   `.text` of the undefined `messages | last` of no messages) is an error, except in the operand
 *   of `default` or `is defined` as above. A key present with an undefined value (`loop.previtem`
 *   on the first item) is not missing.
 *
 * Differences from Jinja that remain (the interpreter's): `items()` and `dictsort` give lists where
 * Jinja gives tuples; numbers have no exponent form (`1e3`); `+` joins a string and a number (Jinja
 * raises); `1 / 0` is `inf`; there is no `{% raw %}` (see `escapeTemplateText`), `{% include %}`,
 * `{% extends %}`, `{% block %}` or `{% with %}`; the filters and tests are the interpreter's (an
 * unknown one fails to compile, listing the known ones); the globals are `range`, `namespace`,
 * `true`, `false` and `none`.
 *
 * @example
 * const prompt = promptTemplate("Answer from:\n{% for doc in documents %}- {{ doc.content }}\n{% endfor %}Question: {{ query }}", { name: "userPrompt" });
 * prompt.variables; // ["documents", "query"]
 * prompt.render({ documents: [{ content: "Paris is in France." }], query: "Where is Paris?" });
 */
export function promptTemplate(source: string, options: PromptTemplateOptions = {}): PromptTemplate {
  const name = options.name ?? "prompt";
  if (typeof source !== "string") throw new PromptTemplateError(name, `${name} template must be a string, got ${describeKind(source)}: pass the template's text.`);
  const compiled = compileTemplate(source, name);
  return markPromptTemplate(
    Object.freeze({
      source,
      name,
      variables: compiled.plan.variables,
      messageBlocks: Object.freeze(compiled.blocks),
      rendersMessages: compiled.rendersMessages,
      render: (values: Readonly<Record<string, unknown>>) => {
        if (compiled.rendersMessages) throw new PromptTemplateError(name, `${name} template has {% message %} blocks or {% insert %} tags, so it renders to messages, not text: call renderMessages.`);
        return renderTemplate(compiled, values);
      },
      renderMessages: (values: Readonly<Record<string, unknown>>) => {
        if (!compiled.rendersMessages) throw new PromptTemplateError(name, `${name} template has no {% message %} block, so it renders to text, not messages: call render, or wrap the text in {% message role="user" %}…{% endmessage %}.`);
        return renderMessages(compiled, values);
      },
    }),
  );
}
