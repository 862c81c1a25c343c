import type { ChatMessage } from "../chat/chatMessage";
import type { MessageBlockTag } from "./messageBlocks";

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
  /**
   * Its `{% message role=… %}` blocks (Haystack's `ChatPromptBuilder` string-template form), in
   * order, with each block's line and its role when the role is a literal; empty for a template
   * that renders to text.
   */
  readonly messageBlocks: readonly MessageBlockTag[];
  /** Whether it renders to messages (`renderMessages`): it has a `{% message %}` block or an `{% insert %}` tag. */
  readonly rendersMessages: boolean;
  /**
   * Renders a template that does not render to messages to its text; throws PromptTemplateError for a
   * missing variable or a failure while rendering, or for a template that renders to messages.
   */
  render(values: Readonly<Record<string, unknown>>): string;
  /**
   * Renders a template with message blocks (or `{% insert %}` tags) to its messages, as
   * Haystack's `ChatPromptBuilder` does (each block's text stripped; nothing but whitespace outside
   * the blocks); throws PromptTemplateError as `render` does, and for a template of text.
   */
  renderMessages(values: Readonly<Record<string, unknown>>): ChatMessage[];
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
