/**
 * A Jinja template compiled once; render it over a context of variables. Made by `promptTemplate`;
 * the Agent only calls `render`, so it does not load the template engine.
 */
export interface PromptTemplate {
  /** The template's Jinja text, as given. */
  readonly source: string;
  /** The template's name for messages: "systemPrompt", "userPrompt", or what the caller gave. */
  readonly name: string;
  /** The variables the template reads from its context (its free variables), sorted. */
  readonly variables: readonly string[];
  /** Renders; throws PromptTemplateError for a missing variable or a failure while rendering. */
  render(values: Readonly<Record<string, unknown>>): string;
}

const templates = new WeakSet<object>();

/** Records a template made by `promptTemplate`, which `isPromptTemplate` then recognises. */
export function markPromptTemplate(template: PromptTemplate): PromptTemplate {
  templates.add(template);
  return template;
}

/** True for a template made by `promptTemplate` (not for look-alike objects). */
export function isPromptTemplate(value: unknown): value is PromptTemplate {
  return typeof value === "object" && value !== null && templates.has(value);
}
