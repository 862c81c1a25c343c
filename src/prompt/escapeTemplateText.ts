/**
 * A template that renders exactly `text`, for turning literal text into a prompt template (the
 * interpreter has no `{% raw %}`). Text without `{{`, `{%`, `{#`, carriage returns or a final
 * newline comes back unchanged; otherwise each `{` that would open a tag becomes `{{ '{' }}`, each
 * `\r` becomes `{{ '\r' }}` (templates turn `\r\n` and `\r` into `\n`, as Jinja does), and a final
 * `\n` becomes `{{ '\n' }}` (templates drop one trailing newline, as Jinja does).
 *
 * @example
 * escapeTemplateText("Use {{ name }} here.\n") // "Use {{ '{' }}{ name }} here.{{ '\n' }}"
 */
export function escapeTemplateText(text: string): string {
  // A `{` before an escaped character would open a tag with the escape's own `{{`, so it is escaped too.
  return text.replace(/\{(?=[{%#\r]|\n$)|\r|\n$/g, (match) => escapes[match]!);
}

const escapes: Readonly<Record<string, string>> = { "{": "{{ '{' }}", "\r": "{{ '\\r' }}", "\n": "{{ '\\n' }}" };
